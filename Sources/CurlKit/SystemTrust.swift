#if canImport(Glibc)
import Glibc
#endif
import CCurl

/// How a transfer that names no CA file or directory trusts peers: through libcurl's built-in CA directory when it
/// is hashed (`openssl rehash`), else through its built-in bundle.
///
/// OpenSSL parses every certificate of a CA *bundle* for each connection (about 140 certificates and 229 M
/// instructions on Debian), while a *hashed directory* is looked up by subject, one file per issuer the chain
/// needs. Debian's `update-ca-certificates` keeps both from the same set, so the directory alone trusts the same
/// CAs for a fraction of the cost. The directory is used only when it is at least as new as the bundle: a bundle
/// edited by hand after the last rehash (a CA appended to it but never linked) keeps libcurl's defaults, bundle
/// and directory both, so nothing the bundle trusts is lost.
/// - SeeAlso: `CURLOPT_CAINFO`, `CURLOPT_CAPATH`, `CURLINFO_CAINFO`, `CURLINFO_CAPATH` (libcurl 7.84.0).
public enum SystemTrust: Equatable, Sendable {
    /// Only the hashed directory: `CURLOPT_CAINFO` unset, `CURLOPT_CAPATH` the directory.
    case hashedDirectory(String)
    /// libcurl's built-in defaults, unchanged.
    case builtInDefaults

    /// The choice for libcurl's built-in locations, read from `handle` (`CURLINFO_CAINFO`, `CURLINFO_CAPATH`),
    /// when the transfer names no CA file or names the built-in bundle itself (`CURL_CA_BUNDLE` or `SSL_CERT_FILE`
    /// set to it, as many container images do): the same trust either way.
    public static func choose(for handle: EasyHandle, caFile: String?) -> SystemTrust {
        let bundle = handle.info(string: CURLINFO_CAINFO)
        guard caFile == nil || caFile == bundle else { return .builtInDefaults }
        return choose(bundle: bundle, directory: handle.info(string: CURLINFO_CAPATH))
    }

    /// The choice for a given bundle and directory (either may be absent from libcurl's build).
    public static func choose(bundle: String?, directory: String?) -> SystemTrust {
        guard let directory, !directory.isEmpty, let directoryTime = modificationTime(directory, directory: true),
              hasHashLinks(directory) else { return .builtInDefaults }
        if let bundle, !bundle.isEmpty, let bundleTime = modificationTime(bundle, directory: false),
           bundleTime > directoryTime {
            return .builtInDefaults
        }
        return .hashedDirectory(directory)
    }

    /// Installs this choice on `handle`.
    func apply(to handle: EasyHandle) throws(CurlError) {
        guard case .hashedDirectory(let directory) = self else { return }
        try handle.set(CURLOPT_CAINFO, nil)
        try handle.set(caPath: directory)
        try handle.set(CURLOPT_PROXY_CAINFO, nil)
        try handle.set(CURLOPT_PROXY_CAPATH, directory)
    }

    /// `path`'s modification time in nanoseconds, if it exists and is a directory (or a regular file).
    private static func modificationTime(_ path: String, directory: Bool) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, ((info.st_mode & S_IFMT) == S_IFDIR) == directory else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// Whether `directory` holds at least one OpenSSL subject-hash name (`5a4d6896.0`: 8 hex digits, a dot, a
    /// digit), which is what a CA directory lookup opens.
    private static func hasHashLinks(_ directory: String) -> Bool {
        guard let stream = opendir(directory) else { return false }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let found = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name.count > 10 && (0..<8).allSatisfy { isHexDigit(name[$0]) } && name[8] == UInt8(ascii: ".")
                    && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(name[9])
            }
            if found { return true }
        }
        return false
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
