import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

/// The `ipcurl` root command: `ipcurl [OPTIONS] URL` fetches, `ipcurl resolve HOST...` prints resolve entries.
@main
struct IPCurl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ipcurl",
        abstract: "HTTPS IP-direct client: resolve via HTTPDNS/DoH, connect to the IP, keep SNI, Host and verification on the name.",
        discussion: """
            Resolvers: --doh, --doh-json, --aliyun, --dnspod, --resolver-cmd, or IPCURL_DNS (e.g. aliyun:139450). \
            Without one, ipcurl asks \(DoHResolver.defaultServers.joined(separator: " then ")) (reached by IP).
            Answers are cached for their TTL in $IPCURL_CACHE_DIR (else $XDG_CACHE_HOME/ipcurl or ~/.cache/ipcurl): \
            ipcurl cache list. When every HTTPDNS server fails, the system resolver is asked (--no-fallback: exit 6).
            Request options (curl's names): ipcurl help fetch. Resolve entries for curl: ipcurl help resolve.
            Connectivity checks of every address (JUnit, TAP, JSON, OpenMetrics): ipcurl help check.
            Exit codes are curl's: 2 usage, 3 bad URL, 4 missing feature, 6 cannot resolve, 7 cannot connect, 28 timeout, \
            35 TLS, 60 certificate not verified, 77 CA file problem.
            """,
        // Shown in help; `main` answers --version itself so libcurl's version line (about 5 M instructions:
        // it asks OpenSSL, nghttp2, libidn2...) is only built when asked for.
        version: "ipcurl \(IPCurlVersion.number)",
        subcommands: [FetchCommand.self, ResolveCommand.self, CheckCommand.self, CacheCommand.self],
        defaultSubcommand: FetchCommand.self
    )

    /// Parses and runs, mapping every failure to curl's exit codes: usage errors are one line and exit 2.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--version" || $0 == "-V" }) {
            DescriptorWriter.standardOutput.write("ipcurl \(IPCurlVersion.number) (\(CurlRuntime.versionLine))\n")
            exitProcess(0)
        }
        let code: Int32
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            code = 0
        } catch let exit as ExitCode {
            code = exit.rawValue
        } catch {
            if exitCode(for: error) == .success {
                DescriptorWriter.standardOutput.write(fullMessage(for: error) + "\n")
                code = 0
            } else {
                let text = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
                DescriptorWriter.standardError.write("ipcurl: \(text) (\(hint(for: arguments)))\n")
                code = 2
            }
        }
        exitProcess(code)
    }

    /// What to try next: options go after a subcommand, so `ipcurl --aliyun 1 resolve a.test` gets pointed there.
    private static func hint(for arguments: [String]) -> String {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
            .filter { $0 != FetchCommand.configuration.commandName }
        guard let first = arguments.first, !names.contains(first),
              let subcommand = arguments.first(where: names.contains) else { return "see 'ipcurl --help'" }
        return "options go after the subcommand: 'ipcurl \(subcommand) [OPTIONS] ...'"
    }
}
