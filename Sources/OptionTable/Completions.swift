/// Shell completion scripts rendered from the subcommands' option tables: bash, zsh and fish. The first word may
/// be a subcommand; without one the default subcommand's options apply. Options that take a file complete file
/// names, options with a fixed set of words complete those words.
/// - SeeAlso: bash(1) `complete -F`, zshcompsys(1) `_arguments`, fish's `complete`.
public struct Completions {
    public let program: String
    /// The subcommands; the one named `defaultName` also applies when no subcommand is given.
    public let subcommands: [SubcommandSummary]
    public let defaultName: String
    /// Words accepted as the first argument besides the subcommands (`help`).
    public let extraWords: [String]

    public init(program: String, subcommands: [SubcommandSummary], defaultName: String, extraWords: [String] = []) {
        self.program = program
        self.subcommands = subcommands
        self.defaultName = defaultName
        self.extraWords = extraWords
    }

    private var firstWords: [String] { subcommands.map(\.name).filter { !$0.isEmpty } + extraWords }
    private var function: String { "_" + identifier }
    private var identifier: String { String(program.map { $0.isLetter || $0.isNumber ? $0 : "_" }) }

    private static func names(_ option: OptionSummary) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--" + option.long]
    }

    private static func words(_ option: OptionSummary) -> [String]? {
        if case .optionalWord(let words) = option.argument { return words }
        return nil
    }

    // MARK: bash

    /// A bash script defining the completion function and registering it with `complete -F`.
    public func bash() -> String {
        var out = "# bash completion for \(program), generated from its option tables\n"
        out += "\(function)() {\n"
        out += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" sub=\(defaultName)\n"
        out += "    case \"${COMP_WORDS[1]}\" in \(firstWords.joined(separator: "|"))) sub=\"${COMP_WORDS[1]}\" ;; esac\n"
        out += "    case \"$sub:$prev\" in\n"
        for command in subcommands {
            let files = command.options.filter(\.takesFile).flatMap(Self.names)
            if !files.isEmpty {
                out += "        " + files.map { "\(command.name):\($0)" }.joined(separator: "|") + ")\n"
                out += "            COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
            }
            for option in command.options {
                guard let words = Self.words(option) else { continue }
                out += "        " + Self.names(option).map { "\(command.name):\($0)" }.joined(separator: "|") + ")\n"
                out += "            COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            }
            let values = command.options.filter { $0.argument.takesValue && !$0.takesFile }.flatMap(Self.names)
            if !values.isEmpty {
                out += "        " + values.map { "\(command.name):\($0)" }.joined(separator: "|") + ")\n"
                out += "            COMPREPLY=(); return ;;\n"
            }
        }
        out += "    esac\n"
        out += "    if [[ $cur == -* ]]; then\n        local opts\n        case $sub in\n"
        for command in subcommands {
            let all = command.options.flatMap { option in
                Self.names(option) + (option.argument == .boolean ? ["--no-" + option.long] : [])
            }
            out += "            \(command.name)) opts=\"\(all.joined(separator: " "))\" ;;\n"
        }
        out += "        esac\n        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
        out += "    elif [[ $COMP_CWORD -eq 1 ]]; then\n"
        out += "        COMPREPLY=($(compgen -W \"\(firstWords.joined(separator: " "))\" -- \"$cur\"))\n"
        out += "    elif [[ $sub == help && $COMP_CWORD -eq 2 ]]; then\n"
        out += "        COMPREPLY=($(compgen -W \"\(subcommands.map(\.name).filter { !$0.isEmpty }.joined(separator: " "))\" -- \"$cur\"))\n"
        out += "    fi\n}\ncomplete -F \(function) \(program)\n"
        return out
    }

    // MARK: zsh

    /// A zsh completion function file (`#compdef`), one `_arguments` call per subcommand.
    public func zsh() -> String {
        var out = "#compdef \(program)\n# zsh completion for \(program), generated from its option tables\n\n"
        out += "\(function)() {\n    local sub=\(defaultName)\n"
        out += "    if (( CURRENT > 2 )) && [[ ${words[2]} == (\(firstWords.joined(separator: "|"))) ]]; then\n"
        out += "        sub=${words[2]}\n        shift words\n        (( CURRENT-- ))\n    fi\n"
        out += "    if (( CURRENT == 2 )) && [[ ${words[CURRENT]} != -* ]]; then\n"
        out += "        compadd -- \(firstWords.joined(separator: " "))\n    fi\n"
        out += "    case $sub in\n"
        for command in subcommands {
            out += "        \(command.name))\n            _arguments -s \\\n"
            for option in command.options {
                out += "                " + Self.zshSpec(option) + " \\\n"
            }
            out += "                '*:argument:_files'\n            ;;\n"
        }
        out += "    esac\n}\n\n\(function) \"$@\"\n"
        return out
    }

    private static func zshSpec(_ option: OptionSummary) -> String {
        let help = option.help.map { character -> String in
            switch character {
            case "[": "("
            case "]": ")"
            case ":": " -"
            case "'": "'\\''"
            default: String(character)
            }
        }.joined()
        let names = Self.names(option)
        let repeats = option.repeatable ? "*" : ""
        let nameSpec = names.count > 1 ? "{\(names.joined(separator: ","))}" : names[0]
        var value = ""
        if option.argument.takesValue {
            value = option.takesFile ? ":\(option.valueName):_files" : ":\(option.valueName): "
        } else if let words = words(option) {
            value = "::word:(\(words.joined(separator: " ")))"
        }
        return "\(repeats)\(nameSpec)'[\(help)]\(value)'"
    }

    // MARK: fish

    /// A fish script of `complete` lines, each option limited to its subcommand.
    public func fish() -> String {
        var out = "# fish completion for \(program), generated from its option tables\n"
        out += "function __\(identifier)_sub\n    set -l words (commandline -opc)\n    set -l sub \(defaultName)\n"
        out += "    if test (count $words) -ge 2; and contains -- $words[2] \(firstWords.joined(separator: " "))\n"
        out += "        set sub $words[2]\n    end\n    test \"$sub\" = \"$argv[1]\"\nend\n"
        out += "complete -c \(program) -n 'test (count (commandline -opc)) -eq 1' -f -a '\(firstWords.joined(separator: " "))'\n"
        for command in subcommands {
            for option in command.options {
                var line = "complete -c \(program) -n '__\(identifier)_sub \(command.name)'"
                if let short = option.short {
                    line += " -s " + (short.isLetter || short.isNumber ? String(short) : Self.fishQuoted(String(short)))
                }
                line += " -l \(option.long)"
                if option.argument.takesValue { line += option.takesFile ? " -r -F" : " -r -f" }
                if let words = Self.words(option) { line += " -f -a '\(words.joined(separator: " "))'" }
                line += " -d \(Self.fishQuoted(option.help))"
                out += line + "\n"
            }
        }
        return out
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
}

extension String {
    /// The string with every `target` character replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
