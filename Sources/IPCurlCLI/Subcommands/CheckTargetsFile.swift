import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// The CLI side of `--targets FILE`: the file's `resolver:` keys are the resolver options' long names, applied
/// through the same rows, and the command line's own resolver options are applied after them, so the command
/// line adds to (and for single values overrides) the file. `insecure` is not accepted in a file: skipping
/// verification takes `-k` on the command line.
enum CheckTargetsFile {
    /// The resolver options a file's `resolver:` mapping may set, and whether each is a flag, takes one value or
    /// may repeat: every resolver row but `insecure`, and `no-NAME` for the booleans.
    static let resolverKeys: [String: ResolverOptionKind] = {
        var keys: [String: ResolverOptionKind] = [:]
        for row in ResolverOptions.rows where row.long != "insecure" {
            switch row.argument {
            case .boolean: (keys[row.long], keys["no-" + row.long]) = (.flag, .flag)
            case .none, .optionalWord: keys[row.long] = .flag
            default: keys[row.long] = row.repeatable ? .values : .value
            }
        }
        return keys
    }()

    /// Reads `path`; any problem is a usage error (exit 2) reading `FILE:LINE:COL: what is wrong`.
    static func load(_ path: String) throws(CurlError) -> TargetsFile {
        do throws(TargetsFileError) { return try TargetsFile.load(path: path, resolverOptions: resolverKeys) } catch {
            throw CurlError.usage(error.description)
        }
    }

    /// The resolver options of the file's `resolver:` section, then `commandLine`'s; a bad value in the file is
    /// reported at its line and column.
    static func resolverOptions(_ file: TargetsFile, path: String,
                                then commandLine: [(long: String, argument: OptionArgument)]) throws(CurlError) -> ResolverOptions {
        var options = ResolverOptions()
        var parser = CommandLineParser(rows: ResolverOptions.rows) { _, value in
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
