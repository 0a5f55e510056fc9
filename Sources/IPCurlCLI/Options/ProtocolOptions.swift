import CurlKit
import IPCurlCore
import OptionTable

/// `--proto`, `--proto-redir` and `--proto-default`, in curl's grammar; ipcurl's redirect loop applies them
/// (``ProtocolRules``).
struct ProtocolOptions: Sendable {
    /// The rules as given: ipcurl's schemes within each list (both, as nothing narrowed them), the default scheme.
    var rules = ProtocolRules()
    /// curl's warnings for names libcurl does not know, told when the operation starts.
    var warnings: [String] = []

    static let category = ResolverOptions.connectionCategory

    static let rows: [OptionRow<ProtocolOptions>] = [
        OptionRow("proto", nil, .string, "protocols", category,
                  "Allow only these protocols (=https, -all,+https, +http; comma-separated), redirects included") {
            $0.rules.allowed = ProtocolRules.Schemes(try read($1, warnings: &$0.warnings))
        },
        OptionRow("proto-redir", nil, .string, "protocols", category,
                  "Allow only these protocols after a redirect (same grammar as --proto)") {
            $0.rules.redirectAllowed = ProtocolRules.Schemes(try read($1, warnings: &$0.warnings))
        },
        OptionRow("proto-default", nil, .string, "protocol", category, "Use PROTOCOL for a URL without a scheme (default: http)") {
            options, argument in
            // curl checks the name while reading its options: a name libcurl does not know is exit 1.
            guard CurlRuntime.protocols.contains(argument.text.lowercased()) else {
                throw CurlError.unsupportedProtocol.with(message: "option \(argument.spelling): a specified protocol is unsupported by libcurl")
            }
            options.rules.defaultScheme = argument.text.lowercased()
        },
    ]

    /// The protocols the comma-separated list of `argument` allows, as curl's `proto2num` reads it: from every
    /// protocol (each `--proto` starts over), each name may be led by `=` (exactly this one), `-` (remove) or `+` (add,
    /// the default; the last sign counts); `all` names every protocol; a name libcurl does not know adds a warning and
    /// is skipped (after `=`, the set is emptied); a sign without a name, or anything else before a name, is a usage
    /// error.
    private static func read(_ argument: OptionArgument, warnings: inout [String]) throws(OptionError) -> Set<String> {
        enum Action { case allow, deny, set }
        let known = Set(CurlRuntime.protocols)
        var allowed = known
        for token in argument.text.split(separator: ",") {
            var action = Action.allow
            var name = Substring(token)
            while let first = name.first, !(first.isASCII && (first.isLetter || first.isNumber)) {
                switch first {
                case "=": action = .set
                case "-": action = .deny
                case "+": action = .allow
                default: throw argument.problem("is badly used here")
                }
                name = name.dropFirst()
            }
            guard !name.isEmpty else { throw argument.problem("is badly used here") }
            let lowered = name.lowercased()
            guard lowered == "all" || known.contains(lowered) else {
                warnings.append("unrecognized protocol '\(name)'")
                if action == .set { allowed = [] }
                continue
            }
            let names = lowered == "all" ? known : [lowered]
            switch action {
            case .allow: allowed.formUnion(names)
            case .deny: allowed.subtract(names)
            case .set: allowed = names
            }
        }
        return allowed
    }

    /// Fills the request's protocol rules.
    func apply(to request: inout FetchRequest) { request.protocols = rules }
}
