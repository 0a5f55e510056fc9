internal import CCurl

extension CurlURL {
    /// The URL `-T FILE` uploads to, as curl names it: when the URL's path has no file name (it is empty or ends
    /// in `/`), the last component of `file` (after its last `/` or `\`), percent-encoded, is appended to the path,
    /// before any `?query` or `#fragment`, and the URL comes back as libcurl spells it; otherwise `url` is returned
    /// as it is. A URL libcurl cannot parse is exit 3.
    /// - SeeAlso: curl's `-T/--upload-file`, `add_file_name_to_url` in `src/tool_operhlp.c`.
    public static func uploadTarget(_ url: String, file: String) throws(CurlError) -> String {
        guard let handle = curl_url() else { throw CurlError.outOfMemory }
        defer { curl_url_cleanup(handle) }
        func failed(_ code: CURLUcode) -> CurlError {
            CurlError.malformedURL.with(message: "URL rejected: \(String(cString: curl_url_strerror(code)))")
        }
        let parsed = curl_url_set(handle, CURLUPART_URL, url, UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard parsed == CURLUE_OK else { throw failed(parsed) }
        let path = part(CURLUPART_PATH, of: handle) ?? "/"
        if let slash = path.lastIndex(of: "/"), path.index(after: slash) != path.endIndex { return url }
        let base = file.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(file)
        let name = base.split(separator: "\\", omittingEmptySubsequences: false).last ?? base
        let joined = (path.hasSuffix("/") ? path : path + "/") + String(decoding: escaped(name.utf8), as: UTF8.self)
        let set = curl_url_set(handle, CURLUPART_PATH, joined, 0)
        guard set == CURLUE_OK else { throw failed(set) }
        guard let whole = part(CURLUPART_URL, of: handle, flags: UInt32(CURLU_DEFAULT_SCHEME)) else {
            throw CurlError.malformedURL.with(message: "URL rejected: no URL after adding \(name)")
        }
        return whole
    }

    /// `curl_easy_escape`: every byte but the RFC 3986 unreserved characters as upper-case `%XX`.
    /// - SeeAlso: `curl_easy_escape`.
    public static func escaped(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return out
    }
}
