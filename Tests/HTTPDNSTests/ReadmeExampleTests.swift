#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTPDNS
import Testing

/// The example of docs/library.md ("Use HTTPDNS from Swift"), compiled here and run against a resolver program of
/// the test's: the test fails when that page's code block and this function differ.
@Suite struct ReadmeExampleTests {
    // docs/library.md example begin
    func pinnedEntry(for host: String, resolverProgram: String) throws -> String {
        let resolver = try CommandResolver(command: resolverProgram)
        let policy = ResolutionPolicy(staticEntries: [], resolver: resolver)
        policy.lookupTimeoutMS = 2_000      // each lookup's own budget
        policy.fallback = SystemResolver()  // asked (and reported) when HTTPDNS gives no address
        do {
            let resolution = try policy.resolve(host: host, port: 443)
            if let reason = resolution.fallbackReason { print("fell back to the system resolver: \(reason.reason)") }
            return resolution.entry!.description  // "api.example.com:443:192.0.2.7": a CURLOPT_RESOLVE entry
        } catch {
            // error.kind: .configuration, .invalidName, .unavailable (error.failures: server, phase, cause),
            // .noAddress (NXDOMAIN, empty answer) or .timedOut.
            throw error
        }
    }
    // docs/library.md example end

    @Test func theExampleRunsAndGivesAnEntry() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-readme-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("resolver.sh").path
        try "#!/bin/sh\necho \"$1:$2:192.0.2.7\"\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        #expect(try pinnedEntry(for: "api.example.com", resolverProgram: program) == "api.example.com:443:192.0.2.7")
        #expect(try pinnedEntry(for: "API.example.com.", resolverProgram: program) == "api.example.com.:443:192.0.2.7")
    }

    @Test func theLibraryPageShowsThisCode() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// docs/library.md example begin") }),
              let end = lines.firstIndex(where: { $0.hasSuffix("// docs/library.md example end") }) else {
            Issue.record("markers missing")
            return
        }
        let code = lines[(begin + 1)..<end].map { $0.dropFirst(4) }.joined(separator: "\n")
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/library.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.contains("```swift\nimport HTTPDNS\n\n" + code + "\n```"), "docs/library.md's example differs from this test's code")
    }
}
