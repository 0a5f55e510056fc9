import Foundation
import Testing

/// The HTTP authentication options against curl 7.88.1 and the lab's `/api/auth/` routes (Basic, RFC 7616 Digest
/// with MD5 and SHA-256, a choice of both for `--anyauth`, NTLM's handshake, a Negotiate challenge no one passes):
/// whether the server let the user in, with which scheme, the status and the exit code. A Digest or NTLM exchange
/// holds fresh random values every run, so the bytes sent are compared by their structure.
@Suite struct AuthOptionTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// What a run of `URL -w '\n%{http_code}'` shows: who the server let in and how (or the body's first line),
    /// and the status.
    static func outcome(_ run: Run) -> String {
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let first = String(lines.first ?? "")
        let object = (try? JSONSerialization.jsonObject(with: Data(first.utf8))) as? [String: Any]
        let who = (object?["authenticated"] as? [String: String]).map { "\($0["scheme"] ?? "?") \($0["user"] ?? "?")" }
        // An echo without a login: whether it carried an Authorization, and of which scheme.
        let carried = (object?["headers"] as? [String: String]).map { "echo, authorization: \($0["authorization"]?.prefix { $0 != " " } ?? "none")" }
        return "\(who ?? carried ?? first) / \(lines.last ?? "") / exit \(run.status)"
    }

    func both(_ arguments: [String]) throws -> (ours: Run, theirs: Run) {
        let write = ["-w", "\n%{http_code}"]
        return (try oracle.ours(["-sS"] + arguments + write), try oracle.theirs(["-sS"] + arguments + write))
    }

    static let logins: [[String]] = [
        ["--digest", "-u", "al:pw", "digest?user=al&pass=pw"], ["--digest", "-u", "al:pw", "digest?user=al&pass=pw&algorithm=SHA-256"],
        ["--digest", "-u", "al:wrong", "digest?user=al&pass=pw"], ["-u", "al:pw", "digest?user=al&pass=pw"],
        ["--anyauth", "-u", "al:pw", "any?user=al&pass=pw"], ["-u", "al:pw", "any?user=al&pass=pw"],
        ["--basic", "-u", "al:pw", "basic?user=al&pass=pw"], ["--digest", "-u", "al:pw", "basic?user=al&pass=pw"],
        ["--digest", "--basic", "-u", "al:pw", "any?user=al&pass=pw"], ["--digest", "--no-digest", "-u", "al:pw", "any?user=al&pass=pw"],
        ["--anyauth", "--no-anyauth", "-u", "al:pw", "any?user=al&pass=pw"], ["--ntlm", "-u", "al:pw", "ntlm"],
        ["--ntlm", "--http1.1", "-u", "dom\\al:pw", "ntlm"], ["--anyauth", "-u", "al:pw", "ntlm"], ["--ntlm-wb", "-u", "al:pw", "basic?user=al&pass=pw"],
        ["--negotiate", "-u", ":", "negotiate"], ["--negotiate", "-u", ":", "--delegation", "always", "--service-name", "HTTP", "negotiate"],
        ["--anyauth", "-u", "al:pw", "negotiate"],
    ]

    @Test(arguments: logins)
    func theServerSeesWhatCurlMakesItSee(login: [String]) throws {
        let (ours, theirs) = try both(login.dropLast() + [lab.api("a.test", "auth/" + login.last!)])
        #expect(Self.outcome(ours) == Self.outcome(theirs), "ipcurl \(ours.stderr) curl \(theirs.stderr)")
        if login.first == "--digest", login[2] == "al:pw", login.last!.hasPrefix("digest") {
            #expect(Self.outcome(ours).hasPrefix("Digest al / 200"))
        }
    }

    /// A Digest request's `Authorization` names the same fields with the same fixed values as curl's.
    @Test(arguments: ["MD5", "SHA-256"])
    func aDigestAnswerHasCurlsShape(algorithm: String) throws {
        let url = lab.api("a.test", "auth/digest?user=al&pass=pw&algorithm=\(algorithm)")
        let (ours, theirs) = try both(["--digest", "-u", "al:pw", url])
        func fields(_ run: Run) throws -> [String: String] {
            let value = try Echo(run.stdout).headers["authorization"] ?? ""
            var found: [String: String] = [:]
            for match in value.matches(of: #/([a-z]+)="?([^",]*)"?/#) {
                let name = String(match.1)
                found[name] = ["nonce", "cnonce", "response", "opaque"].contains(name) ? "(\(match.2.count) chars)" : String(match.2)
            }
            return found
        }
        let mine = try fields(ours)
        #expect(mine == (try fields(theirs)))
        #expect(mine["algorithm"] == algorithm && mine["qop"] == "auth" && mine["username"] == "al", "\(mine)")
    }

    /// `--negotiate` reaches libcurl's GSS-API: with no Kerberos ticket, libcurl says so in `-v` as curl's does.
    @Test func negotiateReachesGSSAPI() throws {
        let url = lab.api("a.test", "auth/negotiate")
        let ours = try oracle.ours(["-sS", "-v", "--negotiate", "-u", ":", "-o", "/dev/null", url])
        let theirs = try oracle.theirs(["-sS", "-v", "--negotiate", "-u", ":", "-o", "/dev/null", url])
        let gss = { (run: Run) in run.stderr.split(whereSeparator: \.isNewline).filter { $0.contains("gss_init_sec_context") }.map(String.init) }
        #expect(!gss(theirs).isEmpty && gss(ours) == gss(theirs), "\(gss(ours)) / \(gss(theirs))")
        #expect(ours.status == theirs.status)
    }

    @Test func anUnknownDelegationWarnsAsCurlDoes() throws {
        let arguments = ["--delegation", "bogus", "-o", "/dev/null", lab.api("a.test", "echo")]
        let ours = try oracle.ours(["-S"] + arguments), curls = try oracle.theirs(["-S"] + arguments)
        #expect(ours.status == 0 && curls.status == 0)
        #expect(curls.stderr.contains("Warning: unrecognized delegation method 'bogus', using none"))
        #expect(ours.stderr.contains("ipcurl: warning: unrecognized delegation method 'bogus', using none"), "\(ours.stderr)")
    }

    /// The token comes from a private file or `$IPCURL_OAUTH2_BEARER`, and is sent as curl sends `--oauth2-bearer TOKEN`.
    @Test func theBearerTokenComesFromAFileOrTheEnvironment() throws {
        let scratch = try TemporaryDirectory()
        let file = scratch.path + "/token"
        try writePrivateFile("bearer-secret-7\n", to: file)
        let url = lab.api("a.test", "echo")
        let curls = try Echo(try oracle.theirs(["-sS", "--oauth2-bearer", "bearer-secret-7", url]).stdout)
        #expect(curls.headers["authorization"] == "Bearer bearer-secret-7")
        let fromFile = try oracle.ours(["-sS", "--oauth2-bearer", file, url])
        #expect(try Echo(fromFile.stdout).headers["authorization"] == curls.headers["authorization"], "\(fromFile.stderr)")
        let fromVariable = try oracle.ours(["-sS", "--oauth2-bearer", "", url], environment: ["IPCURL_OAUTH2_BEARER": "bearer-secret-7"])
        #expect(try Echo(fromVariable.stdout).headers["authorization"] == curls.headers["authorization"], "\(fromVariable.stderr)")
        // The variable alone sends nothing: a token exported for one API never reaches a host a later run names.
        let variableAlone = try oracle.ours(["-sS", url], environment: ["IPCURL_OAUTH2_BEARER": "bearer-secret-7"])
        #expect(try Echo(variableAlone.stdout).headers["authorization"] == nil, "\(variableAlone.stderr)")
        let unset = try oracle.ours(["-sS", "--oauth2-bearer", "", url])
        #expect(unset.status == 2 && unset.stdout.isEmpty, "\(unset.stderr)")
        // With -u as well, curl sends the bearer token alone.
        let withUser = try oracle.ours(["-sS", "--oauth2-bearer", file, "-u", "a:b", url])
        #expect(try Echo(withUser.stdout).headers["authorization"] == "Bearer bearer-secret-7")
    }

    /// A token given as curl takes it is a file that cannot be read: exit 26 without repeating the value; a file
    /// others may read is exit 2; neither sends anything. The token is in no `-v` or `--trace` output.
    @Test func theBearerTokenIsNeverShown() throws {
        let scratch = try TemporaryDirectory()
        let key = "bearer-\(UInt32.random(in: 0...UInt32.max))"
        let url = lab.api("a.test", "flaky?key=\(key)&fails=0")
        let inline = try oracle.ours(["-sS", "--oauth2-bearer", "bearer-secret-8", url])
        #expect(inline.status == 26 && !inline.stderr.contains("bearer-secret-8") && inline.stderr.contains("--oauth2-bearer"),
                "\(inline.stderr)")
        let open = scratch.path + "/open-token"
        try writePrivateFile("bearer-secret-9\n", to: open)
        chmod(open, 0o644)
        let refused = try oracle.ours(["-sS", "--oauth2-bearer", open, url])
        #expect(refused.status == 2 && refused.stderr.contains("readable by others (mode 0644)") && !refused.stderr.contains("bearer-secret-9"),
                "\(refused.stderr)")
        #expect(try lab.hits(key) == 0)
        chmod(open, 0o600)
        let trace = scratch.path + "/trace"
        let shown = try oracle.ours(["-sS", "-v", "--trace-ascii", trace, "--oauth2-bearer", open, url])
        let dump = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(shown.status == 0 && dump.lowercased().contains("authorization: [redacted]"), "\(dump)")
        #expect(!shown.stderr.contains("bearer-secret-9") && !dump.contains("bearer-secret-9"))
        let verbose = try oracle.ours(["-sS", "-v", "--oauth2-bearer", open, url])
        #expect(verbose.stderr.contains("authorization: [redacted]") && !verbose.stderr.contains("bearer-secret-9"), "\(verbose.stderr)")
    }

    /// AWS SigV4: the same `Authorization` fields as curl's (the signature and date aside, which change every
    /// second), and no signature without `-u`.
    @Test func awsSigV4SignsAsCurlDoes() throws {
        let url = lab.api("a.test", "echo?b=2&a=1")
        let arguments = ["--aws-sigv4", "aws:amz:us-east-1:s3", "-u", "AKIDEXAMPLE:sigv4-secret-1", url]
        let ours = try Echo(try oracle.ours(["-sS"] + arguments).stdout), theirs = try Echo(try oracle.theirs(["-sS"] + arguments).stdout)
        func shape(_ echo: Echo) -> String {
            (echo.headers["authorization"] ?? "").replacing(#/Signature=[0-9a-f]{64}/#, with: "Signature=HEX")
                .replacing(#//[0-9]{8}//#, with: "/DATE/")
        }
        #expect(shape(ours) == shape(theirs) && shape(ours).hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/DATE/us-east-1/s3/"),
                "\(shape(ours)) / \(shape(theirs))")
        #expect(ours.headers["x-amz-date"]?.count == 16 && ours.headers["x-amz-date"]?.last == "Z")
        try oracle.compare(["--aws-sigv4", "aws:amz:us-east-1:s3", "-w", "\n%{http_code}", lab.api("a.test", "status?code=204")])
    }

    @Test(arguments: ["https://u:p@a.test:PORT/api/echo", "https://u@a.test:PORT/api/echo", "https://:p@a.test:PORT/api/echo",
                      "https://a.test:PORT/api/echo", "REDIRECT"])
    func aUserNameInTheURLIsRefusedAsCurlRefusesIt(url: String) throws {
        let filled = url == "REDIRECT" ? lab.redirect("a.test", 302, to: "https://u:p@a.test:\(lab.httpsPort)/api/echo")
            : url.replacingOccurrences(of: "PORT", with: "\(lab.httpsPort)")
        let run = try oracle.compare(["-L", "--disallow-username-in-url", "-o", "/dev/null", "-w", "%{http_code} %{num_redirects}", filled])
        if url.contains("@") { #expect(run.status == 67) }
    }

    /// Credentials given for the first host never reach another host a redirect leads to, whatever the method;
    /// `--location-trusted` sends them there, as curl does.
    @Test(arguments: ["basic", "digest", "bearer", "sigv4"], [false, true])
    func credentialsNeverCrossHosts(method: String, trusted: Bool) throws {
        let scratch = try TemporaryDirectory()
        try writePrivateFile("cross-token\n", to: scratch.path + "/token")
        let other = "auth-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let target = method == "digest" ? lab.api(other, "auth/digest?user=al&pass=pw") : lab.api(other, "echo")
        let url = lab.redirect("a.test", 302, to: target)
        let (ours, theirs): ([String], [String]) = switch method {
        case "basic": (["-u", "al:pw"], ["-u", "al:pw"])
        case "digest": (["--digest", "-u", "al:pw"], ["--digest", "-u", "al:pw"])
        case "bearer": (["--oauth2-bearer", scratch.path + "/token"], ["--oauth2-bearer", "cross-token"])
        default: (["--aws-sigv4", "aws:amz:us-east-1:s3", "-u", "AK:SK"], ["--aws-sigv4", "aws:amz:us-east-1:s3", "-u", "AK:SK"])
        }
        let follow = trusted ? ["--location-trusted"] : ["-L"]
        let write = ["-w", "\n%{http_code}"]
        let mine = try ipcurl(aliyun + ["-sS"] + follow + ours + write + [url])
        let pins = ["a.test", other].flatMap { ["--resolve", "\($0):\(lab.httpsPort):\(lab.ip)"] }
        let curls = try run("/usr/bin/curl", ["-q", "-sS", "--cacert", lab.ca] + pins + follow + theirs + write + [url])
        #expect(Self.outcome(mine) == Self.outcome(curls), "ipcurl \(mine.stderr) curl \(curls.stderr)")
        if !trusted {
            #expect(!mine.stdout.lowercased().contains("\"authorization\""), "\(mine.stdout)")
            #expect(Self.outcome(mine).hasSuffix(method == "digest" ? "401 / exit 0" : "200 / exit 0"))
        } else if method == "digest" {
            #expect(Self.outcome(mine).hasPrefix("Digest al / 200"))
        }
    }
}
