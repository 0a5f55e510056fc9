internal import CCurl

/// The process-wide libcurl state: initialised exactly once, on first use, and facts about the linked library.
/// - SeeAlso: `curl_global_init`, `curl_version_info`.
public enum CurlRuntime {
    /// Swift runs a global's initialiser once, thread-safely; touching it runs `curl_global_init`.
    private static let initialised: CURLcode = curl_global_init(ccurl_global_all)

    /// Whether the linked libcurl is new enough, checked once.
    private static let usable: Result<Void, CurlError> = Result { () throws(CurlError) in
        try require(minimumVersion, for: "ipcurl")
    }

    /// Runs `curl_global_init` once and fails with exit 4 if libcurl is older than ``minimumVersion``.
    /// Every easy and multi handle calls this first.
    public static func ensureUsable() throws(CurlError) {
        precondition(initialised == CURLE_OK, "curl_global_init failed")
        try usable.get()
    }

    /// The oldest libcurl ipcurl runs on: 7.85.0, for `CURLOPT_PROTOCOLS_STR` (and so `curl_multi_poll`, 7.66);
    /// Debian 12 ships 7.88.1.
    public static let minimumVersion: UInt32 = 0x075500

    /// libcurl's version as `0xXXYYZZ`, e.g. `0x075801` for 7.88.1.
    public static var versionNumber: UInt32 {
        UInt32(ccurl_version_info().pointee.version_num)
    }

    /// The full version line, e.g. `libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 ... nghttp2/1.52.0`.
    public static var versionLine: String { String(cString: curl_version()) }

    /// Whether the linked libcurl can speak HTTP/2 (needed by DoH servers such as unbound).
    public static var supportsHTTP2: Bool {
        (ccurl_version_info().pointee.features & CURL_VERSION_HTTP2) != 0
    }

    /// The features of the linked libcurl that HTTP(S) transfers can use, named and ordered as `curl -V` names
    /// them (`alt-svc AsynchDNS brotli ... zstd`); SASL for mail protocols and HTTP/3 (which ipcurl does not
    /// offer) are left out.
    public static var featureNames: [String] {
        let bits = Int(ccurl_version_info().pointee.features)
        let table: [(String, Int32)] = [
            ("alt-svc", CURL_VERSION_ALTSVC), ("AsynchDNS", CURL_VERSION_ASYNCHDNS), ("brotli", CURL_VERSION_BROTLI),
            ("CharConv", CURL_VERSION_CONV), ("Debug", CURL_VERSION_DEBUG), ("GSS-API", CURL_VERSION_GSSAPI),
            ("HSTS", CURL_VERSION_HSTS), ("HTTP2", CURL_VERSION_HTTP2), ("HTTPS-proxy", CURL_VERSION_HTTPS_PROXY),
            ("IDN", CURL_VERSION_IDN), ("IPv6", CURL_VERSION_IPV6), ("Kerberos", CURL_VERSION_KERBEROS5),
            ("Largefile", CURL_VERSION_LARGEFILE), ("libz", CURL_VERSION_LIBZ), ("MultiSSL", CURL_VERSION_MULTI_SSL),
            ("NTLM", CURL_VERSION_NTLM), ("NTLM_WB", CURL_VERSION_NTLM_WB), ("PSL", CURL_VERSION_PSL),
            ("SPNEGO", CURL_VERSION_SPNEGO), ("SSL", CURL_VERSION_SSL), ("SSPI", CURL_VERSION_SSPI),
            ("threadsafe", CURL_VERSION_THREADSAFE), ("TLS-SRP", CURL_VERSION_TLSAUTH_SRP),
            ("TrackMemory", CURL_VERSION_CURLDEBUG), ("Unicode", CURL_VERSION_UNICODE),
            ("UnixSockets", CURL_VERSION_UNIX_SOCKETS), ("zstd", CURL_VERSION_ZSTD),
        ]
        return table.compactMap { name, bit in bits & Int(bit) != 0 ? name : nil }
    }

    /// The protocols the linked libcurl speaks, lower-case, as `curl -V` lists them (`dict`, `file`, `ftp`, ...):
    /// the names curl's `--proto` and `--proto-default` know.
    public static let protocols: [String] = {
        var names: [String] = []
        guard var entry = ccurl_version_info().pointee.protocols else { return names }
        while let name = entry.pointee {
            names.append(String(cString: name).lowercased())
            entry += 1
        }
        return names
    }()

    /// Fails with exit 4 when the linked libcurl is older than `minimum` (e.g. `0x074200` for 7.66.0).
    public static func require(_ minimum: UInt32, for feature: String) throws(CurlError) {
        guard versionNumber >= minimum else {
            let want = "\(minimum >> 16).\((minimum >> 8) & 0xff).\(minimum & 0xff)"
            throw CurlError.notBuiltIn.with(message: "\(feature) needs libcurl \(want) or newer; linked: \(versionLine)")
        }
    }
}
