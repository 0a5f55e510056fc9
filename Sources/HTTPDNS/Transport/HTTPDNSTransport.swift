/// One HTTP exchange HTTPDNS needs: a GET, or a POST when ``body`` is set.
///
/// HTTPDNS never opens a socket itself; a program hands it an ``HTTPDNSTransport`` that performs these requests
/// (ipcurl's runs them on a libcurl multi handle). The transport must verify TLS as it would for any request,
/// connect to a name listed in ``pins`` at the pinned addresses only, and stop reading at ``maximumBody``.
/// - SeeAlso: `CURLOPT_URL`, `CURLOPT_RESOLVE`, `CURLOPT_TIMEOUT_MS`, `CURLOPT_POSTFIELDS`.
public struct HTTPDNSRequest: Sendable, Equatable {
    /// The full URL, query included; may carry secrets, so it never appears in messages.
    public var url: String
    /// `POST`ed when present.
    public var body: [UInt8]?
    /// Extra header lines (`Name: value`).
    public var headers: [String]
    /// `HOST:PORT:ADDRESS` pins for the URL's host (a vendor service name, a user's static entry).
    public var pins: [ResolveEntry]
    /// How long the exchange may take in all, in milliseconds; `nil` for no limit.
    public var timeoutMS: Int?
    /// The most body bytes to accept; more is a failure in the ``ResolutionError/Phase/http`` phase.
    public var maximumBody: Int
    /// Whether the exchange may wait for the connection an earlier exchange of the same lookup is opening to the
    /// same server, to share it (HTTP/2). The first exchange to each server opens its own connection, so a hedged
    /// server never waits on a silent one.
    public var joinsConnection: Bool

    /// A request for `url`.
    public init(url: String, body: [UInt8]? = nil, headers: [String] = [], pins: [ResolveEntry] = [],
                timeoutMS: Int? = nil, maximumBody: Int = 65_536, joinsConnection: Bool = false) {
        self.url = url
        self.body = body
        self.headers = headers
        self.pins = pins
        self.timeoutMS = timeoutMS
        self.maximumBody = maximumBody
        self.joinsConnection = joinsConnection
    }
}

/// One HTTP answer.
public struct HTTPDNSResponse: Sendable, Equatable {
    /// The HTTP status code.
    public let status: Int
    /// The `Content-Type`, lowercased; empty when absent.
    public let contentType: String
    /// The body, at most the request's ``HTTPDNSRequest/maximumBody`` bytes.
    public let body: [UInt8]

    /// A response with `status`, `contentType` and `body`.
    public init(status: Int, contentType: String = "", body: [UInt8] = []) {
        self.status = status
        self.contentType = contentType.lowercased()
        self.body = body
    }
}

/// Why an exchange produced no response: the phase it reached and a one-line reason (no secrets).
public struct HTTPDNSTransportFailure: Error, Sendable, Equatable {
    /// Where the exchange stopped.
    public let phase: ResolutionError.Phase
    /// Why.
    public let message: String

    /// A failure in `phase` because of `message`.
    public init(phase: ResolutionError.Phase, message: String) {
        self.phase = phase
        self.message = message
    }
}

/// A finished exchange: the ticket ``HTTPDNSTransport/start(_:)`` returned and its outcome.
public struct HTTPDNSCompletion: Sendable {
    /// Which exchange finished.
    public let ticket: Int
    /// The response, or why there is none.
    public let result: Result<HTTPDNSResponse, HTTPDNSTransportFailure>

    /// Pairs a ticket with its outcome.
    public init(ticket: Int, result: Result<HTTPDNSResponse, HTTPDNSTransportFailure>) {
        self.ticket = ticket
        self.result = result
    }
}

/// The network as HTTPDNS sees it: exchanges that run concurrently, started, waited for and cancelled.
///
/// One transport serves one thread; HTTPDNS calls it from the thread that resolves. It may keep connections
/// between exchanges (the A and AAAA queries share one HTTP/2 connection; a later lookup reuses it).
public protocol HTTPDNSTransport: AnyObject {
    /// Starts `request` and returns a ticket for it; throws only when the request cannot be set up at all.
    func start(_ request: HTTPDNSRequest) throws(ResolutionError) -> Int
    /// Runs the started exchanges for up to `milliseconds` (0: only what is ready) and returns those that
    /// finished, each once. Returns early when something finished.
    func wait(milliseconds: Int) -> [HTTPDNSCompletion]
    /// Abandons a started exchange; its ticket is never reported.
    func cancel(_ ticket: Int)
}
