import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// The CLI side of `--targets FILE`: the file's `resolver:` keys are the resolver options' long names, applied
/// through the same rows, and the command line's own resolver options are applied after them, so the command
/// line adds to (and for single values overrides) the file. A targets file is ``ConfigurationTrust/shared``: the
/// rows with a power (a resolver command, secret files, the vendor server, CA options, `insecure`) are refused in
/// it and stay the command line's (and the environment's).
enum CheckTargetsFile {
    /// The resolver options a `resolver:` mapping of a file of `trust` names, and whether each is a flag, takes one
    /// value, may repeat or is refused: every resolver row, and `no-NAME` for the booleans.
    static func resolverKeys(trust: ConfigurationTrust) -> [String: ResolverOptionKind] {
        var keys: [String: ResolverOptionKind] = [:]
        for row in ResolverOptions.rows {
            let kind: ResolverOptionKind
            switch row.argument {
            case _ where !trust.permits(row): kind = .refused(row.power?.reason ?? "")
            case .boolean, .none, .optionalWord: kind = .flag
            default: kind = row.repeatable ? .values : .value
            }
            keys[row.long] = kind
            if row.argument == .boolean { keys["no-" + row.long] = kind }
        }
        return keys
    }

    /// The keys a targets file may not say and why, in table order (for the documentation).
    static var refusedKeys: [(key: String, reason: String)] {
        ResolverOptions.rows.compactMap { row in
            ConfigurationTrust.shared.permits(row) ? nil : (row.long, row.power?.reason ?? "")
        }
    }

    /// Reads `path`, a file of `trust`; any problem is a usage error (exit 2) reading `FILE:LINE:COL: what is wrong`.
    static func load(_ path: String, trust: ConfigurationTrust) throws(CurlError) -> TargetsFile {
        do throws(TargetsFileError) {
            return try TargetsFile.load(path: path, resolverOptions: resolverKeys(trust: trust))
        } catch {
            throw CurlError.usage(error.description)
        }
    }

    /// The resolver options of the `resolver:` section of a file of `trust` (parsed against the rows it permits
    /// only), then `commandLine`'s; a bad value in the file is reported at its line and column.
    static func resolverOptions(_ file: TargetsFile, path: String, trust: ConfigurationTrust,
                                then commandLine: [(long: String, argument: OptionArgument)]) throws(CurlError) -> ResolverOptions {
        var options = ResolverOptions()
        var parser = CommandLineParser(rows: ResolverOptions.rows.filter(trust.permits)) { _, value in
            throw OptionError("unexpected value \(Printable.quoted(String(value.prefix(40))))")
        }
        for entry in file.resolverArguments {
            do {
                try parser.parse([entry.option] + (entry.value.map { [$0] } ?? []), into: &options)
            } catch {
                throw CurlError.usage("\(path):\(entry.line):\(entry.column): resolver: \(error)")
            }
        }
        for (long, argument) in commandLine {
            guard let row = ResolverOptions.rows.first(where: { $0.long == long }) else { continue }
            do { try row.apply(&options, argument) } catch { throw CurlError.usage("\(error)") }
        }
        return options
    }
}

/// `--label NAME=VALUE`: a label name ``ReportLabel`` allows, and any value.
enum CheckLabels {
    static func parse(_ text: String) throws(CurlError) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw CurlError.usage("--label \(Printable.quoted(text)): expected NAME=VALUE")
        }
        let name = String(text[..<equals]), value = String(text[text.index(after: equals)...])
        if let problem = ReportLabel.problem(with: name) {
            throw CurlError.usage("--label \(Printable.quoted(name)): \(problem)")
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
