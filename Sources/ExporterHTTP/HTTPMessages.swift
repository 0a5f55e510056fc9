/// One HTTP request as a handler sees it: everything libmicrohttpd parsed, nothing of the body (the server reads
/// and drops it).
/// - SeeAlso: `MHD_get_connection_values` (the query with `.GET_ARGUMENT_KIND`, the header with
///   `.HEADER_KIND`), `MHD_get_connection_info` (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`).
public struct HTTPRequest: Sendable {
    /// The request method as sent ("GET", "POST", …).
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// The query's parameters, decoded (`%XX` and `+`), in their order; a name without `=` has the value "".
    public var query: [(name: String, value: String)]
    /// The header fields, names as sent, in their order.
    public var headers: [(name: String, value: String)]
    /// The peer as "IP:PORT" or "[IPv6]:PORT" (an IPv4 peer on a dual-stack socket as plain IPv4).
    public var remoteAddress: String
    /// The basic-auth user whose password was verified, when the server has users.
    public var user: String?

    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], remoteAddress: String = "", user: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.user = user
    }

    /// The first value of query parameter `name` (names match exactly, as Go's `URL.Query().Get`).
    public func parameter(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The first value of header field `name`, matched without regard to ASCII case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// What a handler answers: a status, header fields and a whole body.
/// - SeeAlso: `MHD_create_response_from_buffer` (`.RESPMEM_MUST_COPY`), `MHD_add_response_header`,
///   `MHD_queue_response`.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields, `Content-Type` first; libmicrohttpd adds `Content-Length` and `Date`.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: [UInt8],
                headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: String,
                headers: [(String, String)] = []) {
        self.init(status: status, contentType: contentType, body: Array(body.utf8), headers: headers)
    }
}

/// Why a server could not start, in one line ("listen 127.0.0.1:9115: Address already in use").
/// - SeeAlso: `getaddrinfo`/`gai_strerror`, `bind`/`strerror`, `gnutls_strerror`, `crypt_checksalt`,
///   `MHD_start_daemon`.
public struct HTTPServerError: Error, CustomStringConvertible, Equatable {
    public let description: String

    init(_ description: String) { self.description = description }
}
