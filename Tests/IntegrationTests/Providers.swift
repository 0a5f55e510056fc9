import Foundation
import Testing

/// Each HTTPDNS provider as the lab's fixture serves it: the ipcurl arguments that select it.
enum Provider: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case aliyun, aliyunSigned, aliyunTLS, dnspod, dnspodAES, dnspodDES, dnspodToken, dohJSON, dohJSONGoogle

    var testDescription: String { rawValue }

    /// The `%{dns_source}`-style name `-v` shows for this provider.
    var sourceName: String {
        switch self {
        case .aliyun, .aliyunSigned, .aliyunTLS: "aliyun"
        case .dnspod, .dnspodAES, .dnspodDES, .dnspodToken: "dnspod"
        case .dohJSON, .dohJSONGoogle: "doh-json"
        }
    }

    /// The arguments selecting this provider against `lab`'s fixture (plus the lab CA for every HTTPS hop).
    func arguments(_ lab: Lab) throws -> [String] {
        let ip = try lab.value("LAB_HTTPDNS_IP")
        let http = "http://\(ip):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        let tls = "https://\(ip):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))"
        let account = try lab.value("LAB_ALIYUN_ACCOUNT")
        let selected: [String] = switch self {
        case .aliyun: ["--aliyun", account, "--httpdns-server", http]
        case .aliyunSigned:
            ["--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--httpdns-secret-file", try lab.value("LAB_ALIYUN_SECRET_FILE"),
             "--httpdns-server", http]
        case .aliyunTLS: ["--aliyun", account, "--httpdns-server", "https://\(ip):\(try lab.value("LAB_HTTPDNS_ALIYUN_TLS_PORT"))"]
        case .dnspod: ["--dnspod", "--httpdns-server", http]
        case .dnspodAES:
            ["--dnspod-id", try lab.value("LAB_DNSPOD_ID"), "--dnspod-key-file", try lab.value("LAB_DNSPOD_AES_KEY_FILE"),
             "--httpdns-server", http]
        case .dnspodDES:
            ["--dnspod-id", try lab.value("LAB_DNSPOD_ID"), "--dnspod-alg", "des",
             "--dnspod-key-file", try lab.value("LAB_DNSPOD_DES_KEY_FILE"), "--httpdns-server", http]
        case .dnspodToken: ["--dnspod-token-file", try lab.value("LAB_DNSPOD_TOKEN_FILE"), "--httpdns-server", tls]
        case .dohJSON: ["--doh-json", tls + "/dns-query"]
        case .dohJSONGoogle: ["--doh-json", http + "/resolve"]
        }
        return selected + ["--cacert", lab.ca]
    }
}

/// The fixture's request counters (`/_stats`), global across its listeners.
struct FixtureStats {
    let byListener: [String: Int]
    let byName: [String: Int]

    static func read(_ lab: Lab) throws -> FixtureStats {
        let url = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))/_stats"
        let result = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", url])
        let object = try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any] ?? [:]
        return FixtureStats(byListener: object["by_listener"] as? [String: Int] ?? [:],
                            byName: object["by_name"] as? [String: Int] ?? [:])
    }
}
