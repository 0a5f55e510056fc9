import CCurl

/// The kinds of verbose trace libcurl reports that a `-v` printer shows; TLS and body bytes are left out.
/// - SeeAlso: `CURLOPT_DEBUGFUNCTION`, `curl_infotype`.
public enum TraceKind: Sendable {
    /// Informational text (`* ` lines).
    case text
    /// A request header block (`> ` lines).
    case headerOut
    /// A response header line (`< ` lines).
    case headerIn

    init?(_ type: curl_infotype) {
        switch type {
        case CURLINFO_TEXT: self = .text
        case CURLINFO_HEADER_OUT: self = .headerOut
        case CURLINFO_HEADER_IN: self = .headerIn
        default: return nil
        }
    }
}
