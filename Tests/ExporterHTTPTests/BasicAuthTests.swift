@testable import ExporterHTTP
import Foundation
import Testing

/// basic_auth_users: bcrypt hashes made by python3's `bcrypt` (as `htpasswd -B` makes them), checked by libcrypt.
@Suite struct BasicAuthTests {
    /// bcrypt of `password` at the lowest cost (the cost does not matter to these tests), `$2b$`.
    private static func bcrypt(_ password: String) throws -> String {
        try command("/usr/bin/env", ["python3", "-c",
                                     "import bcrypt, sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(rounds=4)).decode())"],
                    stdin: password).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func server(_ echo: Echo) throws -> HTTPServer {
        // htpasswd and exporter-toolkit's docs write `$2y$`: the same algorithm as `$2b$` under another name.
        let bob = try Self.bcrypt("hunter2")
        let users = ["alice": try Self.bcrypt("s3cret:with colon"), "bob": "$2y$" + bob.dropFirst(4)]
        return try HTTPServer(listenAddress: "127.0.0.1:0", security: .init(basicAuthUsers: users), handler: echo.handle)
    }

    @Test func missingOrWrongCredentialsGet401AndTheHandlerIsNeverCalled() throws {
        let echo = Echo()
        let server = try server(echo)
        defer { server.stop(graceMilliseconds: 0) }
        let url = "http://127.0.0.1:\(server.port)/probe?target=x"
        for arguments in [[url], ["-u", "alice:wrong", url], ["-u", "mallory:s3cret:with colon", url],
                          ["-H", "Authorization: Bearer abc", url], ["-H", "Authorization: Basic !!!", url]] {
            let result = try curl(arguments)
            #expect(result.status == 401, "\(arguments)")
            #expect(result.header("WWW-Authenticate") == "Basic")
            #expect(result.body == "Unauthorized\n")
        }
        #expect(echo.calls == 0)
    }

    @Test func rightCredentialsReachTheHandlerWithTheUser() throws {
        let echo = Echo()
        let server = try server(echo)
        defer { server.stop(graceMilliseconds: 0) }
        let alice = try curl(["-u", "alice:s3cret:with colon", "http://127.0.0.1:\(server.port)/"])
        #expect(alice.status == 200 && alice.body.contains("user alice\n"))
        let bob = try curl(["-u", "bob:hunter2", "http://127.0.0.1:\(server.port)/"])
        #expect(bob.status == 200 && bob.body.contains("user bob\n"))
    }

    @Test func aVerifiedCredentialIsRememberedSoBcryptRunsOnce() throws {
        let echo = Echo()
        let server = try server(echo)
        defer { server.stop(graceMilliseconds: 0) }
        let url = "http://127.0.0.1:\(server.port)/"
        #expect(try curl(["-u", "bob:hunter2", url]).status == 200)
        let afterFirst = server.bcryptCount
        #expect(afterFirst == 1)
        #expect(try curl(["-u", "bob:hunter2", url]).status == 200)
        #expect(server.bcryptCount == afterFirst)
        // A wrong password is not remembered, and a user who does not exist costs a bcrypt too.
        #expect(try curl(["-u", "bob:wrong", url]).status == 401)
        #expect(try curl(["-u", "bob:wrong", url]).status == 401)
        #expect(try curl(["-u", "nobody:hunter2", url]).status == 401)
        #expect(server.bcryptCount == afterFirst + 3)
    }

    @Test(arguments: ["plaintext", "$2b$04$tooshort", "$1$saltsalt$md5cryptmd5cryptmd5cry",
                      "$2x$04$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui", // a variant exporter-toolkit does not write
                      "$2b$04$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBu!"])
    func aHashThatIsNotBcryptIsRefusedAtStart(hash: String) {
        #expect(throws: HTTPServerError("basic auth user \"carol\": the password hash is not a bcrypt hash")) {
            _ = try HTTPServer(listenAddress: "127.0.0.1:0", security: .init(basicAuthUsers: ["carol": hash])) { _ in
                HTTPResponse(status: 200, body: "")
            }
        }
    }
}
