#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A resolver program of the user's: runs it and reads curl `--resolve` lines from it.
///
/// The command is split on ASCII whitespace into words; there are no quotes, escapes, variables or globs and never a
/// shell (put anything fancier in a script). The first word is found on `PATH` as `execvp` does, and the host
/// and the port are appended as the last two arguments: the command `my-dns --zone prod` runs
/// `my-dns --zone prod a.test 443`. The program reads `/dev/null`, inherits no other descriptor and the
/// environment without the variables the caller hides (secrets), and runs in its own process group.
///
/// It must exit 0 within the timeout having printed, for exactly the host and port it was given, lines of
/// `HOST:PORT:ADDRESS[,ADDRESS]...` (IPv6 bracketed or bare). The host matches case-insensitively with or
/// without a trailing dot; empty lines, `\r\n` endings and a missing final newline are fine; a leading `+`
/// (curl's "expires like a cached entry") is accepted and ignored, since the answer has TTL 0 anyway. The
/// addresses of all lines are used in order, without duplicates; the TTL is 0. Anything else is exit 6 with a
/// one-line reason quoting the first bad line, if any: another host or port, a `-HOST:PORT` removal, a word
/// that is not an IP address, stray spaces or control bytes, no address at all, more than ``outputLimit``
/// bytes, a non-zero exit status or a signal (with the first line of the program's stderr, which is captured
/// and never reaches the terminal). Running out of the lookup's budget is a ``ResolutionError/Kind/timedOut``
/// error, after the whole process group is killed. A host that is not a ``HostName``, or starts with `-` (it would
/// look like an option), is refused unasked.
/// - SeeAlso: curl's `--resolve`, `posix_spawnp(3)`.
public struct CommandResolver: Resolver, Sendable {
    /// The most stdout read from the program; more is a failure.
    public static let outputLimit = 65_536
    /// How much of the program's stderr is kept for error messages.
    static let errorOutputLimit = 4_096

    /// The command's words; the host and port are appended to these.
    public let arguments: [String]

    /// Prefixes of environment variable names the program does not see (ipcurl hides `IPCURL_`).
    public let hiddenVariablePrefixes: [String]

    /// A resolver running `command`, split on ASCII whitespace, hiding variables that start with one of
    /// `hiddenVariablePrefixes` from it; throws a configuration error when the command has no words.
    public init(command: String, hiddenVariablePrefixes: [String] = []) throws(ResolutionError) {
        self.hiddenVariablePrefixes = hiddenVariablePrefixes
        let words = command.unicodeScalars.split { $0.isASCII && $0.properties.isWhitespace }.map { String($0) }
        guard !words.isEmpty else { throw .configuration(.resolverCommand, "empty command") }
        guard !command.utf8.contains(0) else { throw .configuration(.resolverCommand, "command contains a NUL byte") }
        arguments = words
    }

    /// The program's file name, as `-v` and `%{dns_source}` show it.
    public var programName: String { arguments[0].split(separator: "/").last.map(String.init) ?? arguments[0] }

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        // A name starting with '-' would reach the program as an option.
        guard let name = HostName.normalized(host), !name.hasPrefix("-"), (1...65535).contains(port) else {
            throw .invalidName(host)
        }
        let label = "resolver command \(Printable.quoted(programName))"
        func failed(_ cause: String) -> ResolutionError { .unavailable(name, [.init(server: label, phase: .answer, cause: cause)]) }
        let timeoutMS = min(max(budget.remainingMS ?? Self.unlimitedMS, 1), Self.unlimitedMS)
        let completed: ChildProcess.Completed
        do {
            completed = try ChildProcess.run(arguments + [name, String(port)], hiding: hiddenVariablePrefixes, timeoutMS: timeoutMS,
                                             outputLimit: Self.outputLimit, errorOutputLimit: Self.errorOutputLimit)
        } catch {
            switch error {
            case .timedOut: throw .timedOut(name, after: timeoutMS, provider: "the resolver command")
            case .cannotRun(let code):
                throw .unavailable(name, [.init(server: label, phase: .connect,
                                                cause: "cannot run \(Printable.quoted(arguments[0])): \(String(cString: strerror(code)))")])
            case .outputTooLarge: throw failed("output larger than \(Self.outputLimit) bytes")
            case .system(let reason): throw failed(reason)
            }
        }
        let stderrLine = Self.firstLine(of: completed.errorOutput).map { ": \($0)" } ?? ""
        switch completed.termination {
        case .exited(0): break
        case .exited(let status): throw failed("exited with status \(status)\(stderrLine)")
        case .signaled(let signal): throw failed("was killed by signal \(signal)\(stderrLine)")
        }
        let addresses: [IPAddress]
        do { addresses = try Self.addresses(in: completed.output, host: name, port: port) } catch {
            throw failed(error.reason)
        }
        guard !addresses.isEmpty else { throw .noAddress(name, source: label, "no addresses\(stderrLine)") }
        return ResolverAnswer(host: name, addresses: addresses, ttl: 0, source: .provider(.command, server: programName))
    }

    /// The run time allowed without a budget (a day: a program must end some time).
    static let unlimitedMS = 86_400_000

    /// Why the program's output is not an answer.
    struct BadOutput: Error {
        let reason: String
    }

    /// The addresses in `output` (none for no lines) when every non-empty line is a valid entry for `host`
    /// (normalized) and `port`.
    static func addresses(in output: [UInt8], host: String, port: Int) throws(BadOutput) -> [IPAddress] {
        var addresses: [IPAddress] = []
        for (index, bytes) in output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
            if line.isEmpty { continue }
            let text = String(decoding: line, as: UTF8.self)
            func bad(_ why: String) -> BadOutput { BadOutput(reason: "line \(index + 1) \(excerpt(text, limit: 80)) \(why)") }

            if text.hasPrefix("-") { throw bad("removes an entry instead of giving addresses") }
            let fields = text.dropFirst(text.hasPrefix("+") ? 1 : 0)
                .split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw bad("is not HOST:PORT:ADDRESS[,ADDRESS]") }
            guard let lineHost = HostName.normalized(String(fields[0])) else { throw bad("has an invalid host name") }
            guard lineHost == host else { throw bad("is not for \(host)") }
            guard fields[1] == String(port) else { throw bad("is not for port \(port)") }
            for field in fields[2].split(separator: ",", omittingEmptySubsequences: false) {
                let bare = field.hasPrefix("[") && field.hasSuffix("]") ? field.dropFirst().dropLast() : field
                guard let address = IPAddress(bare) else { throw bad("has \(excerpt(field, limit: 50)), not an IP address") }
                if !addresses.contains(address) { addresses.append(address) }
            }
        }
        return addresses
    }

    /// The first non-blank line of `bytes`, trimmed, quoted and cut to 120 characters.
    static func firstLine(of bytes: [UInt8]) -> String? {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0d).contains(byte) }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let start = line.firstIndex(where: { !isBlank($0) }), let end = line.lastIndex(where: { !isBlank($0) })
            else { continue }
            return excerpt(String(decoding: line[start...end], as: UTF8.self), limit: 120)
        }
        return nil
    }

    /// `text` quoted with control characters escaped, its first `limit` characters only, `...` marking a cut.
    static func excerpt(_ text: some StringProtocol, limit: Int) -> String { Printable.quotedExcerpt(text, limit: limit) }
}

extension ProviderKind {
    /// ``CommandResolver``.
    public static let command = ProviderKind("command")
}
