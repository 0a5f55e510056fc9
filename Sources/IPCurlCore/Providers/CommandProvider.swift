import HTTPDNS

extension ProviderDescriptor {
    /// A resolver program of the user's: `--resolver-cmd CMD` or `IPCURL_DNS=command:CMD`. It does not see
    /// ipcurl's `IPCURL_` variables (its secrets).
    /// - SeeAlso: ``CommandResolver``; curl's `--resolve` (the lines the program prints).
    public static let command = ProviderDescriptor(
        kind: .command,
        flags: [ProviderFlag("--resolver-cmd", .program, "Run CMD HOST PORT (no shell) and read HOST:PORT:IP[,IP] lines from it")],
        arguments: .last("--resolver-cmd"),
        environment: EnvironmentForm("command", "CMD"), servers: nil,
        settingFlags: [SettingFlag(.resolverCommand, "--resolver-cmd")],
        cacheKey: { choice, _ in "command \(choice.argument ?? "")" },
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            try CommandResolver(command: context.choice.argument ?? "", hiddenVariablePrefixes: ["IPCURL_"])
        })
}
