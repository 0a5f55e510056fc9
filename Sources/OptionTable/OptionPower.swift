/// What an option can do beyond shaping a request, which makes it the operator's alone to give: it runs a program,
/// reads a secret, decides where secrets go or what is trusted. A row with a power (``OptionRow/power``) is taken
/// only from a source of ``ConfigurationTrust/operator`` trust.
public enum OptionPower: Sendable, Equatable {
    /// Runs a program (`--resolver-cmd`).
    case runsProgram
    /// Reads a secret or a private key from a local file (`--httpdns-secret-file`, `--key`, `--pass`).
    case readsSecret
    /// Chooses the server that secrets (from files or the environment) are sent to (`--httpdns-server`).
    case choosesSecretRecipient
    /// Changes which certificates or keys are trusted (`--cacert`, `--capath`, `--pinnedpubkey`).
    case changesTrust
    /// Turns certificate verification off (`-k`).
    case skipsVerification

    /// What the option does, as a refusal names it: `runs a program`.
    public var reason: String {
        switch self {
        case .runsProgram: "runs a program"
        case .readsSecret: "reads a secret or key from a local file"
        case .choosesSecretRecipient: "chooses the server that vendor secrets are sent to"
        case .changesTrust: "changes which certificates are trusted"
        case .skipsVerification: "turns certificate verification off"
        }
    }
}

/// How far a source of options is trusted, which decides the rows it may give (``permits(_:)``).
public enum ConfigurationTrust: Sendable, Equatable {
    /// Written by the operator: the command line, the environment, the user's own config files, and the
    /// configuration of a service the operator runs. Every option.
    case `operator`
    /// Handed to the operator by others: a targets file from a repository or a pull request. Only options without
    /// a power.
    case shared

    /// Whether a source of this trust may give `row`.
    public func permits<Config>(_ row: OptionRow<Config>) -> Bool { self == .operator || row.power == nil }
}
