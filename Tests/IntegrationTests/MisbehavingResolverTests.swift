import Foundation
import Testing

/// The misbehaving-HTTPDNS corpus: every way the lab's fixture can misbehave (Tests/Lab/README.md, "Misbehaving
/// servers"), through every resolver that can express it. Each case runs in a private mount namespace whose hosts
/// file gives the name to the system resolver (127.0.0.2, nginx's default plain-HTTP vhost) and sends `evil.test`
/// to the trap, the address the injected answers hide. With `--no-fallback` the request is exit 6 with one line,
/// within the `--dns-timeout` budget; without it, ipcurl falls back to the system resolver, says so once and
/// succeeds. Nothing ever connects to the trap.
@Suite struct MisbehavingResolverTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The budget every case gets, and the margin over it that still counts as "within the timeout".
    static let dnsTimeout = 1.0, margin = 5.0

    /// One trap for the whole suite (cases run in parallel): 127.0.0.9 on the lab's plain-HTTP port.
    static let trap = Result { try TrapListener(address: "127.0.0.9", port: try Lab.current().httpPort) }

    static let cases = Misbehaviour.allCases.flatMap { mode in mode.resolvers.map { CorpusCase(resolver: $0, mode: mode) } }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"), arguments: cases)
    func noFallbackIsExit6WithOneLineWithinTheBudget(_ corpus: CorpusCase) throws {
        let (result, elapsed) = try request(corpus, ["--no-fallback"])
        let host = corpus.mode.host
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("ipcurl: (6) Could not resolve host: \(host) ("), "\(result.stderr)")
        #expect(elapsed < Self.dnsTimeout + Self.margin, "took \(elapsed) s")
        #expect(try Self.trap.get().connections() == 0, "a request went to the address hidden in the answer")
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"), arguments: cases)
    func fallbackToTheSystemResolverSucceeds(_ corpus: CorpusCase) throws {
        let (result, elapsed) = try request(corpus, [])
        let host = corpus.mode.host
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "vhost=default host=\(host)\n")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("ipcurl: warning: \(host): HTTPDNS gave no address (")
                && lines[0].hasSuffix("; using the system resolver"), "\(result.stderr)")
        #expect(elapsed < Self.dnsTimeout + Self.margin, "took \(elapsed) s")
        #expect(try Self.trap.get().connections() == 0, "a request went to the address hidden in the answer")
    }

    /// Runs ipcurl on `http://HOST:HTTP_PORT/` through the case's resolver, in the namespace described above.
    private func request(_ corpus: CorpusCase, _ extra: [String]) throws -> (Run, TimeInterval) {
        _ = try Self.trap.get()
        let host = corpus.mode.host
        let arguments = try corpus.resolver.arguments(lab, mode: corpus.mode) + extra
            + ["--dns-timeout", "\(Self.dnsTimeout)", "-m", "20", "http://\(host):\(lab.httpPort)/"]
        let started = Date()
        let result = try inHijackedNamespace([ipcurlBinary()] + arguments, extraHosts: "127.0.0.2 \(host)\n127.0.0.9 evil.test\n")
        return (result, Date().timeIntervalSince(started))
    }
}

/// One (resolver, misbehaviour) pair.
struct CorpusCase: Sendable, CustomTestStringConvertible {
    let resolver: CorpusResolver
    let mode: Misbehaviour
    var testDescription: String { "\(resolver.testDescription) \(mode.rawValue)" }
}

/// The resolvers of the corpus: each fixture provider, and DoH wire format (RFC 8484) at `/dns-query-wire`.
enum CorpusResolver: Sendable, CustomTestStringConvertible {
    case vendor(Provider)
    case dohWire

    static let all: [CorpusResolver] = Provider.allCases.map { .vendor($0) } + [.dohWire]

    var testDescription: String {
        switch self {
        case .vendor(let provider): provider.rawValue
        case .dohWire: "dohWire"
        }
    }

    /// The arguments selecting this resolver; for ``Misbehaviour/wrongCertificate`` every fixture URL is moved to
    /// the lab's wrong-certificate server (`https://127.0.0.3:HTTPS_PORT`, another name's certificate).
    func arguments(_ lab: Lab, mode: Misbehaviour) throws -> [String] {
        let arguments: [String] = switch self {
        case .vendor(let provider): try provider.arguments(lab)
        case .dohWire:
            ["--doh", "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))/dns-query-wire",
             "--cacert", lab.ca]
        }
        guard mode == .wrongCertificate else { return arguments }
        let fixture = try NSRegularExpression(pattern: #"^https?://127\.0\.0\.5:[0-9]+"#)
        return arguments.map {
            fixture.stringByReplacingMatches(in: $0, range: NSRange($0.startIndex..., in: $0),
                                             withTemplate: "https://\(lab.wrongIP):\(lab.httpsPort)")
        }
    }
}

/// How the fixture misbehaves, keyed by the queried name (`KIND.test`), and which resolvers can express it.
enum Misbehaviour: String, CaseIterable, Sendable {
    case hang, drip, huge, portal, redirectLoop = "redirect-loop", serverError = "server-error", empty
    case badJSON = "bad-json", badType = "bad-type", dupKey = "dup-key", badComma = "bad-comma", badColon = "bad-colon"
    case badNewline = "bad-newline", badHostname = "bad-hostname", cnameLoop = "cname-loop"
    case compressionLoop = "compression-loop", wrongCertificate = "wrong-certificate"

    /// The name asked: `KIND.test` (a wrong certificate fails before the server sees it).
    var host: String { "\(rawValue).test" }

    var resolvers: [CorpusResolver] {
        let vendors = Provider.allCases.map { CorpusResolver.vendor($0) }
        switch self {
        // The transport and the HTTP layer: every resolver; bad-hostname is an A record holding a name on the wire.
        case .hang, .drip, .huge, .portal, .redirectLoop, .serverError, .empty, .badHostname: return CorpusResolver.all
        // Text the answer formats carry (DoH wire has fixed-size binary addresses).
        case .badJSON, .badType, .badComma, .badColon, .badNewline: return vendors
        // JSON only: Alibaba and DoH JSON (DNSPod answers are plain text).
        case .dupKey: return [.vendor(.aliyun), .vendor(.aliyunSigned), .vendor(.aliyunTLS), .vendor(.dohJSON), .vendor(.dohJSONGoogle)]
        // Answers with CNAME records: DoH JSON and wire; name compression: wire only.
        case .cnameLoop: return [.vendor(.dohJSON), .vendor(.dohJSONGoogle), .dohWire]
        case .compressionLoop: return [.dohWire]
        // A server reached over https: one per API (the others take the same transport).
        case .wrongCertificate: return [.vendor(.aliyun), .vendor(.dnspod), .vendor(.dnspodToken), .vendor(.dohJSON), .dohWire]
        }
    }
}
