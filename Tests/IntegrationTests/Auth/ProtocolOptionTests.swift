import Foundation
import Testing

/// `--proto`, `--proto-redir` and `--proto-default` against curl 7.88.1: curl's grammar (`=`, `-`, `+`, `all`,
/// unknown names warned and skipped, a sign without a name a usage error), the first URL and every redirect hop
/// held to them by ipcurl's own redirect loop, and the scheme a URL without one gets.
@Suite struct ProtocolOptionTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    static let lists = ["=https", "-all,+https", "=https,foo", "bogus", "", "-all", "+http", "=HTTPS", "-https,http", "=foo",
                        "=foo,http", "http,-all", ",,=http", "=all,-https", "-all,+HTTP", "=-+http", "=https,+-http", "=http;https"]

    @Test(arguments: lists, ["http", "https"])
    func protoMatchesCurl(list: String, scheme: String) throws {
        let url = scheme == "http" ? "http://a.test:\(lab.httpPort)/api/echo" : lab.api("a.test", "echo")
        try oracle.compare(["--proto", list, "-o", "/dev/null", "-w", "%{http_code}", url])
    }

    @Test func eachProtoStartsFromEveryProtocol() throws {
        try oracle.compare(["--proto", "-http", "--proto", "+https", "-o", "/dev/null", "-w", "%{http_code}",
                            "http://a.test:\(lab.httpPort)/api/echo"])
    }

    @Test(arguments: ["+", "=", "=https, http", "-all,+"])
    func aSignWithoutANameIsAUsageError(list: String) throws {
        let run = try oracle.compare(["--proto", list, lab.api("a.test", "echo")])
        #expect(run.status == 2 && run.stderr.hasPrefix("ipcurl: option --proto: is badly used here"), "\(run.stderr)")
    }

    @Test func unknownNamesWarnAsCurlDoes() throws {
        let arguments = ["--proto", "=https,foo", "--proto-redir", "bar", "-o", "/dev/null", lab.api("a.test", "echo")]
        let ours = try oracle.ours(["-S"] + arguments), curls = try oracle.theirs(["-S"] + arguments)
        #expect(ours.status == 0 && curls.status == 0)
        for name in ["foo", "bar"] {
            #expect(curls.stderr.contains("Warning: unrecognized protocol '\(name)'"))
            #expect(ours.stderr.contains("ipcurl: warning: unrecognized protocol '\(name)'"), "\(ours.stderr)")
        }
        #expect(try oracle.ours(["-s"] + arguments).stderr.isEmpty)
    }

    /// Every hop of ipcurl's redirect loop: `--proto` holds for redirects too, `--proto-redir` only for them.
    @Test(arguments: [["--proto-redir", "=https"], ["--proto-redir", "=http"], ["--proto", "=https"], ["--proto-redir", "-all,+http"],
                      ["--proto-redir", "-all"], ["--proto", "=https", "--proto-redir", "all"], ["--proto-redir", "=https", "--proto", "+http"]],
          ["http", "https"])
    func redirectsAreHeldToTheListsAsInCurl(options: [String], target: String) throws {
        let to = target == "http" ? "http://a.test:\(lab.httpPort)/api/echo" : lab.api("a.test", "echo")
        let run = try oracle.compare(["-L", "-A", "same"] + options + ["-w", "\n%{http_code} %{num_redirects} %{url_effective}",
                                                          lab.redirect("a.test", 302, to: to)])
        if options == ["--proto-redir", "=https"], target == "http" {
            #expect(run.status == 1 && run.stderr.contains("Protocol \"http\" not supported or disabled in libcurl"))
        }
    }

    /// curl follows a redirect to ftp (and fails on it); ipcurl refuses it (exit 1), with curl's `-w` values.
    @Test func aRefusedRedirectToAnotherSchemeCountsAsCurlCountsIt() throws {
        let arguments = ["-sL", "-w", "%{http_code} %{num_redirects} %{url_effective} [%{redirect_url}]",
                         lab.redirect("a.test", 302, to: "ftp://a.test:1/x")]
        let ours = try oracle.ours(arguments), theirs = try oracle.theirs(arguments)
        #expect(ours.status == 1 && ours.stdout == theirs.stdout, "\(ours.stdout) / \(theirs.stdout)")
    }

    @Test(arguments: [["--proto-default", "https", "a.test:PORT/api/echo"], ["--proto-default", "HTTPS", "a.test:PORT/api/echo"],
                      ["--proto-default", "http", "a.test:HTTP/api/echo"], ["a.test:HTTP/api/echo"],
                      ["--proto-default", "https", "http://a.test:HTTP/api/echo"],
                      ["--proto-default", "https", "--proto", "=http", "a.test:PORT/api/echo"]])
    func aURLWithoutASchemeGetsTheDefaultAsInCurl(arguments: [String]) throws {
        let filled = arguments.map {
            $0.replacingOccurrences(of: "PORT", with: "\(lab.httpsPort)").replacingOccurrences(of: "HTTP/", with: "\(lab.httpPort)/")
        }
        try oracle.compare(["-A", "same"] + filled + ["-w", "\n%{url_effective} %{url}"])
    }

    /// `//host/path` becomes `https:////host/path`, which libcurl refuses (exit 3) for both.
    @Test func aDefaultSchemeBeforeSlashesIsAMalformedURL() throws {
        let arguments = ["-sS", "--proto-default", "https", "//a.test:\(lab.httpsPort)/api/echo"]
        #expect(try oracle.ours(arguments).status == 3 && oracle.theirs(arguments).status == 3)
    }

    @Test func anUnknownDefaultProtocolIsExit1() throws {
        let run = try oracle.compare(["--proto-default", "bogus", "a.test:\(lab.httpsPort)/api/echo"])
        #expect(run.status == 1 && run.stderr == "ipcurl: option --proto-default: a specified protocol is unsupported by libcurl\n",
                "\(run.stderr)")
    }
}
