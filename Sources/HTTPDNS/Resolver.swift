import CurlKit

/// Something that turns a host name into addresses: a DoH server, a vendor HTTPDNS API, a command, a static table.
///
/// A failure is a `CurlError` with exit code 6 (could not resolve) or 28 (timed out) and a one-line reason
/// that never contains secrets; ``ResolverFailure`` builds them.
public protocol Resolver {
    /// Resolves `host` (already validated by ``HostName``) for a connection to `port`, or throws why not.
    /// Most providers ignore the port; a `--resolver-cmd` program is told it.
    func resolve(_ host: String, port: Int) throws(CurlError) -> ResolverAnswer
    /// Resolves several hosts, in order; providers with a batch API override this to ask in fewer requests.
    func resolve(hosts: [String], port: Int) -> [Result<ResolverAnswer, CurlError>]
}

extension Resolver {
    public func resolve(hosts: [String], port: Int) -> [Result<ResolverAnswer, CurlError>] {
        hosts.map { host in Result { () throws(CurlError) in try resolve(host, port: port) } }
    }
}

/// The one-line errors every provider throws, worded like curl's own.
public enum ResolverFailure {
    /// Exit 6: `Could not resolve host: HOST (REASON)`. `reason` must not contain secrets.
    public static func couldNotResolve(_ host: String, _ reason: String) -> CurlError {
        CurlError.couldntResolveHost.with(message: "Could not resolve host: \(host) (\(reason))")
    }

    /// Exit 6 for a provider's definite answer that the name has no usable records (NXDOMAIN, no A or AAAA):
    /// marked ``CurlError/isAuthoritative``, so the policy does not ask the system resolver instead.
    public static func noRecords(_ host: String, _ reason: String) -> CurlError {
        couldNotResolve(host, reason).authoritative()
    }

    /// The `REASON` of a ``couldNotResolve(_:_:)`` error for `host`, or the whole message for any other error.
    public static func reason(_ error: CurlError, host: String) -> String {
        let prefix = "Could not resolve host: \(host) ("
        guard error.message.hasPrefix(prefix), error.message.hasSuffix(")") else { return error.message }
        return String(error.message.dropFirst(prefix.count).dropLast())
    }
}
