/// A listen address as Go's `net.Listen` reads one (`net.SplitHostPort`): `HOST:PORT`, `:PORT` (every address),
/// `[IPv6]:PORT`; the port decimal, 0 for any free one.
struct ListenAddress: Equatable {
    /// An address literal or a name; nil for every address.
    let host: String?
    let port: UInt16

    init(_ text: String) throws(HTTPServerError) {
        func refuse(_ reason: String) -> HTTPServerError { HTTPServerError("listen \(text): \(reason)") }
        let hostPart: Substring, portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw refuse("missing ']' in address") }
            let after = text.index(after: close)
            guard after < text.endIndex else { throw refuse("missing port in address") }
            guard text[after] == ":" else { throw refuse("unexpected text after ']' in address") }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(after: after)...]
            if hostPart.contains("[") || hostPart.contains("]") { throw refuse("unexpected '[' in address") }
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw refuse("missing port in address") }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") { throw refuse("too many colons in address") }
            if hostPart.contains("[") || hostPart.contains("]") { throw refuse("unexpected '[' in address") }
        }
        if portPart.contains("[") || portPart.contains("]") { throw refuse("unexpected ']' in address") }
        guard portPart.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw refuse("unknown port \"\(portPart)\"") }
        guard let port = portPart.isEmpty ? 0 : UInt16(portPart) else { throw refuse("invalid port \"\(portPart)\"") }
        self.host = hostPart.isEmpty ? nil : String(hostPart)
        self.port = port
    }
}
