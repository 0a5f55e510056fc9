/// A flag that chooses a provider and does nothing else, as the command line offers it: the CLI makes its option
/// row from this value (help, the man page and completions with it) and only checks the flag's value there; which
/// provider the flag chose, with which arguments, is the registry's (``ProviderChoice/chosen(by:)``).
/// - SeeAlso: ``ProviderDescriptor/flagRows``; curl's `tool_listhelp.c` (a row per option).
public struct ProviderFlag: Sendable {
    /// What the flag takes.
    public enum Value: Sendable, Equatable {
        /// Nothing: on, or off with `--no-NAME` (`--dnspod`).
        case boolean
        /// A word the provider reads, shown in help as `<placeholder>` (`--aliyun <account>`).
        case text(placeholder: String)
        /// A server URL (`<url>`) that libcurl must parse, with the `https` scheme, or `http` too when `plainHTTP`;
        /// its user info and query values are blanked from the process list.
        case serverURL(plainHTTP: Bool)
        /// A command line the provider runs (`<cmd>`): an option only the operator may give.
        case program
    }

    /// The long spelling, `--doh`.
    public let flag: String
    /// What it takes.
    public let value: Value
    /// Its line in help and the man page.
    public let help: String
    /// Whether giving it again adds a value (`--doh URL`, raced) rather than replacing the earlier one.
    public let repeatable: Bool
    /// Shown by plain `--help`.
    public let important: Bool

    /// `flag` taking `value`, described by `help`.
    public init(_ flag: String, _ value: Value, _ help: String, repeatable: Bool = false, important: Bool = false) {
        self.flag = flag
        self.value = value
        self.help = help
        self.repeatable = repeatable
        self.important = important
    }
}
