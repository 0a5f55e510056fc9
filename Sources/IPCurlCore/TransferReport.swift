import CCurl
import CurlKit

/// What a finished (or failed) transfer reports to `-w`: curl's getinfo values plus the exit code and message.
/// - SeeAlso: `curl_easy_getinfo`, curl's `-w/--write-out` variables.
public struct TransferReport: Sendable {
    /// `%{http_code}` / `%{response_code}`; 0 before any response.
    public var responseCode = 0
    /// `%{remote_ip}`, `%{remote_port}`, `%{local_ip}`, `%{local_port}`.
    public var remoteIP = "", remotePort = 0, localIP = "", localPort = 0
    /// Times in microseconds since the start: `%{time_namelookup}` … `%{time_total}`.
    public var microseconds: [String: Int64] = [:]
    /// `%{size_download}`, `%{size_upload}`, `%{size_header}`, `%{speed_download}`, `%{speed_upload}`.
    public var counts: [String: Int64] = [:]
    /// `%{url_effective}`: the URL last requested.
    public var effectiveURL: String
    /// `%{redirect_url}`, `%{content_type}`, `%{scheme}`.
    public var redirectURL = "", contentType = "", scheme = ""
    /// `%{num_redirects}`, `%{num_connects}`, `%{ssl_verify_result}`, `%{http_version}` as curl prints it.
    public var numRedirects = 0, numConnects = 0, sslVerifyResult = 0, httpVersion = "0"
    /// `%{exitcode}` and `%{errormsg}`.
    public var exitCode: Int32 = 0, errorMessage = ""
    /// ipcurl's `%{dns_source}`: which resolver gave the addresses (`aliyun`, `cache`, `system`, ...); empty for
    /// an IP literal. `%{dns_time}` is in ``microseconds``.
    public var dnsSource = ""

    /// A report for a request that never reached libcurl (bad URL, resolution failure).
    public init(url: String) {
        effectiveURL = url
        for (name, _) in Self.timeInfos { microseconds[name] = 0 }
        microseconds["dns_time"] = 0
        for name in Self.countInfos.map(\.0) + ["size_header", "size_request"] { counts[name] = 0 }
    }

    static let timeInfos: [(String, CURLINFO)] = [
        ("time_namelookup", CURLINFO_NAMELOOKUP_TIME_T), ("time_connect", CURLINFO_CONNECT_TIME_T),
        ("time_appconnect", CURLINFO_APPCONNECT_TIME_T), ("time_pretransfer", CURLINFO_PRETRANSFER_TIME_T),
        ("time_starttransfer", CURLINFO_STARTTRANSFER_TIME_T), ("time_redirect", CURLINFO_REDIRECT_TIME_T),
        ("time_total", CURLINFO_TOTAL_TIME_T),
    ]
    static let countInfos: [(String, CURLINFO)] = [
        ("size_download", CURLINFO_SIZE_DOWNLOAD_T), ("size_upload", CURLINFO_SIZE_UPLOAD_T),
        ("speed_download", CURLINFO_SPEED_DOWNLOAD_T), ("speed_upload", CURLINFO_SPEED_UPLOAD_T),
    ]

    /// Reads every value from `handle` after `curl_easy_perform` returned.
    init(handle: EasyHandle, url: String) {
        self.init(url: handle.info(string: CURLINFO_EFFECTIVE_URL) ?? url)
        responseCode = handle.info(long: CURLINFO_RESPONSE_CODE)
        remoteIP = handle.info(string: CURLINFO_PRIMARY_IP) ?? ""
        remotePort = handle.info(long: CURLINFO_PRIMARY_PORT)
        localIP = handle.info(string: CURLINFO_LOCAL_IP) ?? ""
        localPort = handle.info(long: CURLINFO_LOCAL_PORT)
        for (name, info) in Self.timeInfos { microseconds[name] = handle.info(offset: info) }
        for (name, info) in Self.countInfos { counts[name] = handle.info(offset: info) }
        counts["size_header"] = Int64(handle.info(long: CURLINFO_HEADER_SIZE))
        counts["size_request"] = Int64(handle.info(long: CURLINFO_REQUEST_SIZE))
        redirectURL = handle.info(string: CURLINFO_REDIRECT_URL) ?? ""
        contentType = handle.info(string: CURLINFO_CONTENT_TYPE) ?? ""
        scheme = handle.info(string: CURLINFO_SCHEME) ?? ""
        numRedirects = handle.info(long: CURLINFO_REDIRECT_COUNT)
        numConnects = handle.info(long: CURLINFO_NUM_CONNECTS)
        sslVerifyResult = handle.info(long: CURLINFO_SSL_VERIFYRESULT)
        httpVersion = Self.versionText(handle.info(long: CURLINFO_HTTP_VERSION))
    }

    private static func versionText(_ value: Int) -> String {
        switch value {
        case CURL_HTTP_VERSION_1_0: "1"
        case CURL_HTTP_VERSION_1_1: "1.1"
        case CURL_HTTP_VERSION_2_0: "2"
        case CURL_HTTP_VERSION_3: "3"
        default: "0"
        }
    }
}
