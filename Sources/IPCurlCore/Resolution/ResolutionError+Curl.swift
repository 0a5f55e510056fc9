import CurlKit
import HTTPDNS

extension CurlError {
    /// The one place HTTPDNS's errors become curl's exit codes and message text:
    /// - a configuration error is a usage error (exit 2) naming the option that set it (``ResolverFlag``), except
    ///   a `--resolve` entry that does not parse: exit 49, as libcurl refuses it for curl;
    /// - a resolver that ran out of time is exit 28, `Resolving timed out after N milliseconds: HOST (...)`;
    /// - a transport that could not be set up keeps libcurl's own error;
    /// - everything else is exit 6, `Could not resolve host: HOST (REASON)`, as curl words it.
    public init(_ error: ResolutionError) {
        if let curl = error.underlying as? CurlError {
            self = curl
            return
        }
        switch error.kind {
        case .configuration where error.setting == .staticEntry:
            // curl hands --resolve to libcurl, which refuses the entry with exit 49.
            self = CurlError.badOptionSyntax.with(
                message: "Couldn't parse CURLOPT_RESOLVE entry \(error.settingValue ?? "''") (\(error.reason))")
        case .configuration:
            let flag = error.setting.map(ResolverFlag.name(for:)) ?? "resolver"
            self = .usage(flag + (error.settingValue.map { " \($0)" } ?? "") + ": " + error.reason)
        case .timedOut:
            self = CurlError.operationTimedOut.with(
                message: "Resolving timed out after \(error.milliseconds ?? 0) milliseconds: \(error.host) (\(error.reason))")
        case .invalidName:
            self = CurlError.couldntResolveHost.with(message: "Could not resolve host: \(error.host) is not a plain DNS name")
        case .unavailable, .noAddress:
            self = CurlError.couldntResolveHost.with(message: "Could not resolve host: \(error.host) (\(error.reason))")
        }
    }
}

/// The command-line option behind each HTTPDNS setting, for usage errors: the settings providers share here, each
/// provider's own in its descriptor (``ProviderDescriptor/settingFlags``).
public enum ResolverFlag {
    /// The settings no single provider owns.
    static let shared = [SettingFlag(.vendorServer, "--httpdns-server"), SettingFlag(.staticEntry, "--resolve")]

    /// The flag that sets `setting`; `resolver` for one no flag sets.
    public static func name(for setting: ResolutionError.Setting) -> String {
        shared.first { $0.setting == setting }?.flag ?? ProviderDescriptor.flag(for: setting) ?? "resolver"
    }
}

extension Result where Failure == ResolutionError {
    /// The same result with curl's error (``CurlError/init(_:)``).
    public var curl: Result<Success, CurlError> { mapError(CurlError.init) }
}
