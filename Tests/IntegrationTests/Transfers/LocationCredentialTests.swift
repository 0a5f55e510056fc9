import Foundation
import Testing

/// Credentials named in a `Location:` (`https://user:pw@host/`), ipcurl against the system curl (7.88.1): the
/// `Authorization` header the final hop carries, which host got it and `%{url_effective}`, for a Location on the
/// same server, on another host, on another scheme and port, and chains that remember a Location's user info;
/// each with `-L` or `--location-trusted`, with and without `-u`.
@Suite struct LocationCredentialTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The Location's target, from a.test's `/api/redirect`.
    enum Target: String, CaseIterable, Sendable {
        case sameHost, otherHost, otherSchemeAndPort, sameHostThenOtherHost, sameHostThenRelative
    }

    static let options: [[String]] = [["-L"], ["-L", "-u", "alice:secret"], ["--location-trusted"],
                                      ["--location-trusted", "-u", "alice:secret"]]

    @Test(arguments: Target.allCases, options)
    func authorizationMatchesCurl(_ target: Target, _ options: [String]) throws {
        let other = "loc-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let url = lab.redirect("a.test", 302, to: location(target, other: other))
        let write = ["-w", "\n%{url_effective}"]
        let curl = try run("/usr/bin/curl", ["-sS", "--cacert", lab.ca] + pins(other) + options + write + [url])
        let ours = try ipcurl(try Provider.aliyun.arguments(lab) + options + write + [url])
        #expect(curl.status == 0 && ours.status == 0, "\(curl.stderr) \(ours.stderr)")
        let (curlSaw, oursSaw) = (try Echo(curl.stdout), try Echo(ours.stdout))
        #expect(oursSaw.headers["x-lab-host"] == curlSaw.headers["x-lab-host"])
        #expect(oursSaw.headers["authorization"] == curlSaw.headers["authorization"], "curl: \(curlSaw.headers)")
        #expect(ours.stdout.split(separator: "\n").last == curl.stdout.split(separator: "\n").last)
        // Never credentials on another host without --location-trusted.
        if options[0] == "-L", oursSaw.headers["x-lab-host"] != "a.test" || target == .otherSchemeAndPort {
            #expect(oursSaw.headers["authorization"] == nil)
        }
    }

    /// curl 7.88.1 remembers a Location's user info and sends it to the first host when a later hop comes back
    /// there; ipcurl sends remembered user info only to the server it was named for (unless `--location-trusted`).
    @Test func userInfoNamedForAnotherHostNeverComesBack() throws {
        let other = "loc-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let back = lab.redirect("user:pw@\(other)", 302, to: lab.api("a.test", "echo"))
        let result = try ipcurl(try Provider.aliyun.arguments(lab) + ["-L", lab.redirect("a.test", 302, to: back)])
        let echo = try Echo(result.stdout)
        #expect(echo.headers["x-lab-host"] == "a.test" && echo.headers["authorization"] == nil, "\(echo.headers)")
        let trusted = try ipcurl(try Provider.aliyun.arguments(lab) + ["--location-trusted", lab.redirect("a.test", 302, to: back)])
        #expect(try Echo(trusted.stdout).headers["authorization"] == "Basic dXNlcjpwdw==")
    }

    private func location(_ target: Target, other: String) -> String {
        switch target {
        case .sameHost: lab.api("user:pw@a.test", "echo")
        case .otherHost: lab.api("user:pw@\(other)", "echo")
        case .otherSchemeAndPort: "http://user:pw@a.test:\(lab.httpPort)/api/echo"
        case .sameHostThenOtherHost: lab.redirect("user:pw@a.test", 302, to: lab.api(other, "echo"))
        case .sameHostThenRelative: lab.redirect("user:pw@a.test", 302, to: "/api/echo")
        }
    }

    /// curl's pins for the names a chain visits (ipcurl resolves them through the fixture).
    private func pins(_ other: String) -> [String] {
        ["a.test:\(lab.httpsPort)", "\(other):\(lab.httpsPort)", "a.test:\(lab.httpPort)"].flatMap { ["--resolve", "\($0):\(lab.ip)"] }
    }
}
