import CurlKit
import HTTPDNS

/// HTTPDNS's network, made of libcurl: every exchange is an easy handle on one ``MultiHandle`` event loop, with
/// the user's TLS trust (`--cacert`, `-k`) and connect timeout, HTTP/2 where the server offers it, and
/// `CURLOPT_PIPEWAIT` for an exchange that joins a sibling's connection, so the A and AAAA queries share one. Connections stay in the multi handle's
/// cache for the next lookup.
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_CONNECT_TO`, `CURLOPT_PIPEWAIT`, `CURLOPT_PROTOCOLS_STR`, `CURLOPT_TIMEOUT_MS`.
final class CurlTransport: HTTPDNSTransport {
    private let options: TransportOptions
    private let multi: MultiHandle
    private var exchanges: [Int: Exchange] = [:]
    private var nextTicket = 1

    private final class Exchange {
        let handle: EasyHandle
        let limit: Int
        var body: [UInt8] = []
        var overflowed = false
        init(handle: EasyHandle, limit: Int) {
            self.handle = handle
            self.limit = limit
        }
    }

    /// A transport that verifies and times out as `options` say (its `timeoutMS` is ignored: each request
    /// carries its own).
    init(options: TransportOptions) throws(ResolutionError) {
        self.options = options
        do { multi = try MultiHandle() } catch { throw .unavailable("", [], underlying: error) }
    }

    func start(_ request: HTTPDNSRequest) throws(ResolutionError) -> Int {
        do throws(CurlError) {
            let handle = try EasyHandle()
            let exchange = Exchange(handle: handle, limit: request.maximumBody)
            var options = self.options
            options.timeoutMS = request.timeoutMS
            try options.applyToQuery(handle)
            try handle.set(url: request.url)
            if let body = request.body {
                handle.requestBody = BytesBody(body)
                try handle.setPost(size: Int64(body.count))
            }
            try? handle.set(httpVersion: .http2TLS)  // a libcurl without HTTP/2 stays on 1.1
            // Wait to share the HTTP/2 connection a sibling exchange is opening; over plain http (HTTP/1.1, no ALPN)
            // waiting would only queue this exchange behind the other, so it opens a connection of its own.
            if request.joinsConnection, request.url.hasPrefix("https://") { try handle.set(waitsToMultiplex: true) }
            try handle.set(userAgent: "ipcurl-httpdns")
            // A pin to one address is a connect-to entry, so the connection is matched by address too: a vendor's
            // servers share one TLS name at several addresses, and a boot server's connection must not carry a
            // query meant for a service address. A pin to several addresses lets libcurl try each.
            let (single, several) = (request.pins.filter { $0.addresses.count == 1 }, request.pins.filter { $0.addresses.count > 1 })
            if !single.isEmpty {
                try handle.set(connectTo: single.map { "\($0.host):\($0.port):\($0.addresses[0].resolveEntryForm):\($0.port)" })
            }
            if !several.isEmpty { try handle.set(resolveEntries: several.map(\.description)) }
            if !request.headers.isEmpty { try handle.set(headers: request.headers) }
            handle.onBody = { [unowned exchange] chunk in
                guard exchange.body.count + chunk.count <= exchange.limit else {
                    exchange.overflowed = true
                    return false
                }
                exchange.body += chunk
                return true
            }
            try multi.add(handle)
            let ticket = nextTicket
            nextTicket += 1
            exchanges[ticket] = exchange
            return ticket
        } catch {
            throw .unavailable("", [], underlying: error)
        }
    }

    func wait(milliseconds: Int) -> [HTTPDNSCompletion] {
        let finished: [MultiHandle.Finished]
        do { finished = try multi.run(upToMilliseconds: milliseconds) } catch {
            let failure = HTTPDNSTransportFailure(phase: .connect, message: error.message)
            defer { for exchange in exchanges.values { multi.remove(exchange.handle) }; exchanges = [:] }
            return exchanges.keys.sorted().map { HTTPDNSCompletion(ticket: $0, result: .failure(failure)) }
        }
        return finished.compactMap { done in
            guard let (ticket, exchange) = exchanges.first(where: { $0.value.handle === done.handle }) else { return nil }
            exchanges[ticket] = nil
            return HTTPDNSCompletion(ticket: ticket, result: Self.outcome(exchange, done.error))
        }
    }

    func cancel(_ ticket: Int) {
        guard let exchange = exchanges.removeValue(forKey: ticket) else { return }
        multi.remove(exchange.handle)
    }

    private static func outcome(_ exchange: Exchange, _ error: CurlError?) -> Result<HTTPDNSResponse, HTTPDNSTransportFailure> {
        if exchange.overflowed {
            return .failure(.init(phase: .http, message: "answer larger than \(exchange.limit) bytes"))
        }
        if let error { return .failure(.init(phase: phase(of: error), message: Printable.escaped(error.message))) }
        let handle = exchange.handle
        return .success(HTTPDNSResponse(status: handle.responseCode, contentType: handle.contentType ?? "", body: exchange.body))
    }

    /// Where a libcurl failure happened, in HTTPDNS's terms.
    private static func phase(of error: CurlError) -> ResolutionError.Phase {
        if error == .operationTimedOut { return .timeout }
        if AddressFailover.tlsFailures.contains(error) || error == .caCertBadFile { return .tls }
        if error == .couldntConnect || error == .couldntResolveHost { return .connect }
        return .http
    }
}
