import CurlKit
import HTTPDNS

extension FetchRun {
    /// Resolves the host the hop connects to (timed for `%{dns_time}`, bounded by `--max-time`); a known host:port
    /// reuses its resolution. That host is the URL's, or the target of the `--connect-to` entry or alt-svc
    /// alternative libcurl takes for it (``ConnectionRoute/destination(host:port:secure:)``); with `--hsts`, an
    /// `http://` hop whose host the HSTS file lists (libcurl upgrades it) gets the pins of the `https://` connection
    /// too (on its port, and on 443 for a URL without one), in ``extraPins``. `nil` when nothing is pinned: a unix
    /// socket resolves nothing, a proxy resolves the name itself.
    /// Port 0, which nothing can connect to, is curl's exit 7 before any lookup.
    func resolve(_ url: CurlURL) throws(CurlError) -> Resolution? {
        (pinnedPlace, extraPins) = (nil, [])
        let route = request.template.route
        if let socket = route.unixSocket {
            // libcurl uses no proxy with a unix socket.
            (viaProxy, throughProxy) = (false, false)
            diagnostics.trace("* HTTPDNS \(url.host): connecting through the \(socket.label); nothing is resolved\n")
            return nil
        }
        let proxy = ProxyEnvironment.route(for: url, settings: request.template.proxy)
        throughProxy = proxy != nil
        if let proxy {
            session.warnAboutProxy(proxy, pinnable: true)
            diagnostics.trace(proxy.decision(for: url.host))
        }
        if let proxy, proxy.resolvesNames {
            viaProxy = true
            return nil
        }
        viaProxy = false
        try url.requireConnectablePort()
        guard let destination = route.destination(host: url.host, port: url.port, secure: url.scheme == "https") else { return nil }
        let resolution = try resolve(destination, unicode: url.unicodeHost)
        pinnedPlace = (destination.host, destination.port)
        lastResolution = resolution
        if let hstsFile = route.hstsFile, url.scheme == "http", HSTSFile.upgrades(url.host, in: hstsFile) {
            for port in url.port == 80 ? [80, 443] : [url.port] {
                guard let upgraded = route.destination(host: url.host, port: port, secure: true),
                      upgraded.host != destination.host || upgraded.port != destination.port else { continue }
                diagnostics.trace("* HSTS \(ConnectionRoute.place(url.host, url.port)): an upgrade to https connects to "
                                  + "\(ConnectionRoute.place(upgraded.host, upgraded.port)), pinned too\n")
                let extra = upgraded.host == destination.host ? try resolve(upgraded, sameHostAs: resolution) : try resolve(upgraded)
                extraPins += [extra.entry].compactMap { $0 }
            }
        }
        return resolution
    }

    /// `destination`'s host resolved for its port, saying first why the connection goes there.
    private func resolve(_ destination: ConnectionRoute.Destination, unicode: String? = nil) throws(CurlError) -> Resolution {
        if let reason = destination.reason {
            let what = IPAddress(destination.host) != nil ? "an address, nothing to resolve"
                : "\(Printable.escaped(destination.host)) is resolved through HTTPDNS"
            diagnostics.trace("* \(reason); \(what)\n")
        }
        let budget = request.template.transport.timeoutMS.map { TimeBudget(limitMS: $0, from: attemptStart) }
        let lookup = try session.resolve(host: destination.host, port: destination.port,
                                         unicode: destination.reason == nil ? unicode : nil, within: budget)
        dnsMicroseconds += lookup.microseconds
        return lookup.resolution
    }

    /// `destination` (the host of `resolution` on another port) with `resolution`'s addresses, asking nothing, when
    /// those came from HTTPDNS, the cache or the system and no `--resolve` entry pins the host on that port;
    /// otherwise resolved as any host.
    private func resolve(_ destination: ConnectionRoute.Destination, sameHostAs resolution: Resolution) throws(CurlError) -> Resolution {
        guard let entry = resolution.entry, let answer = resolution.answer, answer.source != .staticEntry,
              let name = HostName.normalized(destination.host),
              StaticResolver.first(pinning: name, port: destination.port, in: session.settings.staticEntries) == nil,
              let moved = ResolveEntry(host: entry.host, port: destination.port, addresses: entry.addresses) else {
            return try resolve(destination)
        }
        return Resolution(entry: moved, answer: answer, cache: resolution.cache)
    }
}
