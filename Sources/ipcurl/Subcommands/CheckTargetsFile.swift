import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

/// The CLI side of `--targets FILE`: the file's `resolver:` keys are the resolver flags' long names, and the
/// command line's own resolver flags are read after them, so the command line adds to (and for single values
/// overrides) the file. `insecure` is not accepted in a file: skipping verification takes `-k` on the command line.
enum CheckTargetsFile {
    /// The resolver options a file's `resolver:` mapping may set, and whether each is a flag, takes one value or
    /// may repeat.
    static let resolverKeys: [String: ResolverOptionKind] = [
        "doh": .values, "doh-url": .values, "doh-json": .values, "resolver-cmd": .value, "aliyun": .value,
        "httpdns-secret-file": .value, "dnspod": .flag, "dnspod-id": .value, "dnspod-key-file": .value,
        "dnspod-alg": .value, "dnspod-token-file": .value, "httpdns-server": .values, "httpdns-client-ip": .value,
        "dns-timeout": .value, "dns-stale": .value, "no-dns-cache": .flag, "no-fallback": .flag, "ipv4": .flag,
        "ipv6": .flag, "resolve": .values, "cacert": .value, "connect-timeout": .value, "max-time": .value,
    ]

    /// Reads `path`; any problem is a usage error (exit 2) reading `FILE:LINE:COL: what is wrong`.
    static func load(_ path: String) throws(CurlError) -> TargetsFile {
        do throws(TargetsFileError) { return try TargetsFile.load(path: path, resolverOptions: resolverKeys) } catch {
            throw CurlError.usage(error.description)
        }
    }

    /// The resolver options of the file's `resolver:` section followed by the command line's.
    static func resolverOptions(_ file: TargetsFile, path: String) throws(CurlError) -> ResolverOptions {
        let fromFile = file.resolverArguments.flatMap { [$0.option] + ($0.value.map { [$0] } ?? []) }
        var commandLine = Array(CommandLine.arguments.dropFirst())
        if let check = commandLine.firstIndex(of: CheckCommand.configuration.commandName!) {
            commandLine = Array(commandLine[(check + 1)...])
        }
        do {
            return try ResolverOnly.parse(fromFile + commandLine).resolver
        } catch {
            let first = file.resolverArguments.first.map { "\($0.line):\($0.column)" } ?? "1:1"
            let why = ResolverOnly.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            throw CurlError.usage("\(path):\(first): resolver: \(why)")
        }
    }
}

/// The resolver options of an argument list, everything else ignored.
private struct ResolverOnly: ParsableArguments {
    @OptionGroup var resolver: ResolverOptions
    @Argument(parsing: .allUnrecognized) var rest: [String] = []
}

/// `--label NAME=VALUE`: a label name ``ReportLabel`` allows, and any value.
enum CheckLabels {
    static func parse(_ text: String) throws(CurlError) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw CurlError.usage("--label \(ResolveEntry.quoted(text)): expected NAME=VALUE")
        }
        let name = String(text[..<equals]), value = String(text[text.index(after: equals)...])
        if let problem = ReportLabel.problem(with: name) {
            throw CurlError.usage("--label \(ResolveEntry.quoted(name)): \(problem)")
        }
        return (name, value)
    }

    /// `labels` with later ones replacing earlier ones of the same name (the command line wins over the file).
    static func merged(_ labels: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for label in labels {
            if let index = result.firstIndex(where: { $0.name == label.name }) { result[index] = label } else { result.append(label) }
        }
        return result
    }
}
