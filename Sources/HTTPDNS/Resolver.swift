import CurlKit

/// Something that turns a host name into addresses: a DoH server, a vendor HTTPDNS API, a static table.
///
/// A failure is a `CurlError` with exit code 6 (could not resolve) or 28 (timed out) and a one-line reason
/// that never contains secrets.
public protocol Resolver {
    /// Resolves `host` (already validated by ``HostName``) or throws why not.
    func resolve(_ host: String) throws(CurlError) -> ResolverAnswer
}
