import Foundation
import Testing

/// `-L` through ipcurl's own redirect loop: every hop resolved through HTTPDNS, curl's method and credential rules.
@Suite struct RedirectTests: LabSuite {
    let fixture: LabFixture
    init() throws {
        fixture = try LabFixture()
    }

    @Test func crossHostChainReachesAHostOnlyHTTPDNSKnows() throws {
        let host = "hop-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let chain = lab.redirect("a.test", 302, to: lab.redirect("b.test", 301, to: lab.https(host, "/final")))
        let result = try ipcurl(aliyun + ["-L", "--no-fallback", "-w", "\n%{num_redirects} %{url_effective} %{remote_ip}", chain])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "vhost=any.test host=\(host) sni=\(host) method=GET uri=/final\n\n2 \(lab.https(host, "/final")) 127.0.0.2")
        let asked = try FixtureStats.read(lab).byName[host] ?? 0
        #expect(asked >= 1, "the third hop was resolved through the fixture")
        // Plain curl with --resolve for the first host cannot follow: the name is unknown to system DNS.
        let curl = try run("/usr/bin/curl", ["-sS", "-L", "--cacert", lab.ca, "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)",
                                             "--resolve", "b.test:\(lab.httpsPort):\(lab.ip)", chain])
        #expect(curl.status == 6, "\(curl.stderr)")
    }

    @Test func status307KeepsTheBinaryBodyAndDropsCredentialsOnAnotherHost() throws {
        let scratch = try TemporaryDirectory()
        let body = try randomFile(scratch, "body.bin", bytes: 1 << 20)
        let target = lab.api("x307.any.test", "echo")
        let result = try ipcurl(aliyun + ["-L", "-u", "alice:secret", "-H", "Authorization: Bearer t0ken", "-H", "Cookie: c=1",
                                          "-b", "jar=1", "-H", "X-Keep: yes", "--data-binary", "@" + body,
                                          lab.redirect("a.test", 307, to: target)])
        #expect(result.status == 0, "\(result.stderr)")
        let echo = try Echo(result.stdout)
        #expect(echo.method == "POST")
        let digest = try sha256(ofFile: body)
        #expect(echo.bodySHA256 == digest && echo.bodyLength == 1 << 20)
        #expect(echo.headers["authorization"] == nil && echo.headers["cookie"] == nil, "\(echo.headers)")
        #expect(echo.headers["x-keep"] == "yes")
    }

    @Test func sameHostAndLocationTrustedKeepCredentials() throws {
        let sameHost = try ipcurl(aliyun + ["-L", "-u", "alice:secret", lab.redirect("a.test", 307, to: "/api/echo")])
        #expect(try Echo(sameHost.stdout).headers["authorization"] == "Basic YWxpY2U6c2VjcmV0")
        let trusted = try ipcurl(aliyun + ["--location-trusted", "-u", "alice:secret", "-H", "Cookie: c=1",
                                           lab.redirect("a.test", 302, to: lab.api("trusted.any.test", "echo"))])
        let echo = try Echo(trusted.stdout)
        #expect(echo.headers["authorization"] == "Basic YWxpY2U6c2VjcmV0" && echo.headers["cookie"] == "c=1")
    }

    @Test func postBecomesGetOn301To303UnlessAsked() throws {
        for status in [301, 302, 303] {
            let echo = try Echo(try ipcurl(aliyun + ["-L", "-d", "a=1", lab.redirect("a.test", status, to: "/api/echo")]).stdout)
            #expect(echo.method == "GET" && echo.bodyLength == 0, "\(status)")
        }
        let kept = try Echo(try ipcurl(aliyun + ["-L", "--post302", "-d", "a=1", lab.redirect("a.test", 302, to: "/api/echo")]).stdout)
        #expect(kept.method == "POST" && kept.bodyLength == 3)
        let put = try Echo(try ipcurl(aliyun + ["-L", "-X", "PUT", "-d", "a=1", lab.redirect("a.test", 308, to: "/api/echo")]).stdout)
        #expect(put.method == "PUT" && put.bodyLength == 3)
    }

    @Test func relativeLocationResolvesAgainstTheRequestURL() throws {
        let result = try ipcurl(aliyun + ["-L", "-w", "\n%{url_effective}", lab.api("a.test", "redirect?code=302&to=../api/echo%3Fq%3D1")])
        #expect(result.status == 0)
        #expect(try Echo(result.stdout).query == "q=1")
        #expect(result.stdout.hasSuffix("\n" + lab.api("a.test", "echo?q=1")))
    }

    @Test func aLoopStopsAtMaxRedirsWithExit47() throws {
        let result = try ipcurl(aliyun + ["-L", "--max-redirs", "3", "-w", "%{num_redirects}", lab.api("a.test", "loop")])
        #expect(result.status == 47)
        #expect(result.stdout == "3", "no redirect body is written, then -w")
        #expect(result.stderr.contains("Maximum (3) redirects followed"))
        let curl = try run("/usr/bin/curl", ["-s", "-L", "--max-redirs", "3", "--cacert", lab.ca, "-w", "%{num_redirects}",
                                             "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", lab.api("a.test", "loop")])
        #expect(curl.status == 47 && curl.stdout == result.stdout)
    }

    /// An endless loop ends where curl's does, with or without a limit above it: libcurl 7.88 counts the response
    /// headers of the whole chain and stops past 300 KiB with exit 56; every hop before that is followed.
    @Test(arguments: ["-1", "2000"])
    func anEndlessLoopEndsWhereCurlsHeadersRunOut(maxRedirs: String) throws {
        let loop = "http://a.test:\(lab.httpPort)/api/loop"
        let arguments = ["-sS", "-L", "--max-redirs", maxRedirs, "-m", "60", "-o", "/dev/null",
                         "-w", "%{exitcode} %{num_redirects} %{size_header} %{errormsg}", loop]
        let ours = try ipcurl(["--resolve", "a.test:\(lab.httpPort):\(lab.ip)"] + arguments)
        let curls = try oracle.theirs(arguments)
        #expect(curls.status == 56 && ours.status == curls.status, "\(ours.stderr)")
        #expect(ours.stdout == curls.stdout)
        #expect(CurlOracle.errorLine(ours) == CurlOracle.errorLine(curls), "\(ours.stderr)")
    }

    @Test func unlimitedRedirectsFileLocationsAndAutoReferer() throws {
        let unlimited = try ipcurl(aliyun + ["-L", "--max-redirs", "-1", "-w", "%{num_redirects}", "-o", "/dev/null",
                                             lab.redirect("a.test", 302, to: "/api/echo")])
        #expect(unlimited.status == 0 && unlimited.stdout == "1", "\(unlimited.stderr)")
        let file = try ipcurl(aliyun + ["-L", lab.redirect("a.test", 302, to: "file:///etc/passwd")])
        #expect(file.status == 1 && !file.stdout.contains("root:"))
        let start = lab.redirect("a.test", 307, to: "/api/echo")
        let auto = try Echo(try ipcurl(aliyun + ["-L", "-e", ";auto", start]).stdout)
        #expect(auto.headers["referer"] == start, "the previous URL, query included")
        let empty = try ipcurl(aliyun + ["-L", lab.api("a.test", "redirect?code=302&to=")])
        #expect(empty.status == 0 && empty.stdout == "redirect 302 to \n", "nothing to follow: the body is the answer")
    }

    @Test func withoutLocationTheRedirectIsTheAnswer() throws {
        let result = try ipcurl(aliyun + ["-i", "-w", "%{http_code} %{redirect_url}", lab.redirect("a.test", 302, to: "/api/echo")])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("HTTP/2 302"))
        #expect(result.stdout.hasSuffix("302 " + lab.api("a.test", "echo")))
    }

    @Test func includeShowsEveryHopsHeaders() throws {
        let result = try ipcurl(aliyun + ["-L", "-i", lab.redirect("a.test", 301, to: "/api/echo")])
        #expect(result.status == 0)
        let lines = result.stdoutBytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.filter { $0.hasPrefix("HTTP/") }.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == ["HTTP/2 301", "HTTP/2 200"])
        #expect(!result.stdout.contains("redirect 301"), "a followed redirect's body is not output")
    }
}
