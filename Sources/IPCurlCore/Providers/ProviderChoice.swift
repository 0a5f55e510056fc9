import CurlKit
import HTTPDNS

/// The provider that resolves host names and what it was given: chosen by one command-line flag, else by
/// `IPCURL_DNS`, else the built-in DoH servers. Which flags and words choose which provider is the registry's
/// (``ProviderDescriptor/all``).
/// - SeeAlso: curl's `--doh-url` (the one provider curl itself has), `CURLOPT_RESOLVE`.
public struct ProviderChoice: Sendable, Equatable {
    /// The provider.
    public let descriptor: ProviderDescriptor
    /// What chose it gave: DoH server URLs (none: the built-in ones), an account ID, DNSPod's authorization ID
    /// (none: a mode without one) or a command line.
    public let arguments: [String]
    /// The mode `IPCURL_DNS` named by the form's variant word (`aliyun-v2`); `nil` for the provider's own word or a flag.
    public let variant: String?

    /// `descriptor` with `arguments`, in the mode `variant` names.
    public init(_ descriptor: ProviderDescriptor, _ arguments: [String] = [], variant: String? = nil) {
        self.descriptor = descriptor
        self.arguments = arguments
        self.variant = variant
    }

    /// The flag that selects this provider, for messages.
    public var flag: String { descriptor.flag }

    /// The last argument: the account, the ID or the command; `nil` when none was given.
    public var argument: String? { arguments.last }

    /// Parses `IPCURL_DNS`: one of the registry's forms (`doh[:URL]`, `doh-json:URL`, `aliyun:ACCOUNT`,
    /// `aliyun-v2:ACCOUNT`, `dnspod[:ID]` or `command:CMD`). Throws a usage error (exit 2) for anything else.
    public init(environment value: String) throws(CurlError) {
        let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let word = String(parts[0])
        guard let descriptor = ProviderDescriptor.all.first(where: { $0.environment.word == word || $0.environment.variant == word }),
              let arguments = descriptor.environment.arguments(parts.count == 2 ? String(parts[1]) : nil) else {
            throw CurlError.usage("IPCURL_DNS=\(Printable.quoted(String(CurlURL.redacted(text: value).prefix(80)))): expected "
                                  + ProviderDescriptor.alternatives(ProviderDescriptor.all.flatMap(\.environment.texts)))
        }
        self.init(descriptor, arguments, variant: word == descriptor.environment.word ? nil : word)
    }

    /// The providers the `given` flags choose, in registry order: each one with a given flag among its
    /// ``ProviderDescriptor/flags`` (a boolean one only when its last use is on), with its arguments.
    public static func chosen(by given: [GivenFlag]) -> [ProviderChoice] {
        ProviderDescriptor.all.compactMap { descriptor in
            guard descriptor.flags.contains(where: { flag in given.last { $0.flag == flag }?.isOn == true }) else { return nil }
            return ProviderChoice(descriptor, descriptor.arguments.values(in: given))
        }
    }
}

/// One use of a provider-choosing flag, in command-line order: the CLI records them and
/// ``ProviderChoice/chosen(by:)`` reads them.
/// - SeeAlso: curl's `tool_getparam.c` (`--no-NAME` turns a boolean off).
public struct GivenFlag: Sendable {
    /// The flag's long spelling (`--dnspod-id`), whatever abbreviation was typed.
    public let flag: String
    /// Its value; empty for a boolean.
    public let value: String
    /// `false` for `--no-NAME`.
    public let isOn: Bool

    /// `flag` given with `value`, or turned off.
    public init(_ flag: String, value: String, isOn: Bool = true) {
        self.flag = flag
        self.value = value
        self.isOn = isOn
    }
}

/// `WORD[:ARGUMENT]` in `IPCURL_DNS`: `aliyun:ACCOUNT`, `dnspod[:ID]`.
/// - SeeAlso: ``ProviderChoice/init(environment:)``.
public struct EnvironmentForm: Sendable {
    /// The word before the colon; the provider's ``ProviderKind`` name.
    public let word: String
    /// What the argument is, as the usage error names it (`ACCOUNT`).
    public let placeholder: String
    /// Whether the argument may be left out (`doh` alone uses the built-in servers).
    public let argumentIsOptional: Bool
    /// A second word choosing the provider in another mode (`aliyun-v2`), recorded as ``ProviderChoice/variant``.
    public let variant: String?

    /// `word` (or `variant`) with an argument named `placeholder`, which may be left out when `argumentIsOptional`.
    public init(_ word: String, _ placeholder: String, argumentIsOptional: Bool = false, variant: String? = nil) {
        self.word = word
        self.placeholder = placeholder
        self.argumentIsOptional = argumentIsOptional
        self.variant = variant
    }

    /// `dnspod[:ID]` or `aliyun:ACCOUNT`, as the usage error lists it.
    public var text: String { text(word) }

    /// ``text`` and, with a variant, its form too (`aliyun-v2:ACCOUNT`).
    public var texts: [String] { [text] + (variant.map { [text($0)] } ?? []) }

    private func text(_ word: String) -> String {
        argumentIsOptional ? "\(word)[:\(placeholder)]" : "\(word):\(placeholder)"
    }

    /// The arguments `argument` (what followed the colon; `nil` without one) gives, or `nil` when the form
    /// refuses it: an empty argument never, a missing one unless it is optional.
    func arguments(_ argument: String?) -> [String]? {
        guard let argument else { return argumentIsOptional ? [] : nil }
        return argument.isEmpty ? nil : [argument]
    }
}
