import Foundation
import Testing

/// One request made by ipcurl (through the lab's DoH server) and by `/usr/bin/curl` (with `--resolve` to the lab),
/// for options that must behave as curl's.
struct CurlOracle {
    let lab: Lab

    /// The environment both tools run in: the caller's, with curl's CA and proxy variables cleared (an empty
    /// variable counts as unset for both) unless `environment` sets them.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var base = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_DIR", "SSL_CERT_FILE", "http_proxy", "https_proxy", "HTTPS_PROXY",
                     "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY", "IPCURL_PASS"] {
            base[name] = ""
        }
        return base.merging(extra) { $1 }
    }

    /// ipcurl's run: `--doh` the lab, `--cacert` the lab CA unless `trust` is false.
    func ours(_ arguments: [String], trust: Bool = true, environment: [String: String] = [:]) throws -> Run {
        let resolver = ["--doh", lab.dohURL] + (trust ? ["--cacert", lab.ca] : [])
        return try ipcurl(resolver + arguments, environment: Self.environment(environment))
    }

    /// curl's run: `--resolve` every lab name to the lab's address, `--cacert` the lab CA unless `trust` is false.
    func theirs(_ arguments: [String], trust: Bool = true, environment: [String: String] = [:]) throws -> Run {
        let resolves = ["a.test", "mtls.test"].flatMap { ["--resolve", "\($0):\(lab.httpsPort):\(lab.ip)",
                                                          "--resolve", "\($0):\(lab.httpPort):\(lab.ip)"] }
        return try run("/usr/bin/curl", resolves + (trust ? ["--cacert", lab.ca] : []) + arguments,
                       environment: Self.environment(environment))
    }

    /// The error line without the tool's name: `(58) could not load ...`.
    static func errorLine(_ run: Run) -> String {
        let line = run.stderr.split(separator: "\n").last { $0.hasPrefix("curl: (") || $0.hasPrefix("ipcurl: (") } ?? ""
        return withoutElapsedTime(String(line.drop { $0 != "(" }))
    }

    /// `line` with libcurl's elapsed time (`after 4 ms`) as `after N ms`: how long a refused connection took is no
    /// behaviour of either program (a sanitizer build takes longer).
    static func withoutElapsedTime(_ line: String) -> String {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for index in words.indices.dropLast() where index > 0 && words[index - 1] == "after" && words[index + 1].hasPrefix("ms")
            && Int(words[index]) != nil {
            words[index] = "N"
        }
        return words.joined(separator: " ")
    }

    /// Runs both and expects the same exit code, stdout and error line.
    @discardableResult
    func compare(_ ours: [String], _ theirs: [String]? = nil, trust: Bool = true,
                 environment: [String: String] = [:], ourEnvironment: [String: String] = [:]) throws -> Run {
        let mine = try self.ours(["-sS"] + ours, trust: trust, environment: environment.merging(ourEnvironment) { $1 })
        let curls = try self.theirs(["-sS"] + (theirs ?? ours), trust: trust, environment: environment)
        #expect(mine.status == curls.status, "\(ours): ipcurl \(mine.status) \(mine.stderr), curl \(curls.status) \(curls.stderr)")
        #expect(mine.stdout == curls.stdout, "\(ours)")
        #expect(Self.errorLine(mine) == Self.errorLine(curls), "\(ours)")
        return mine
    }
}
