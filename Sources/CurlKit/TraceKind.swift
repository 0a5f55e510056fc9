internal import CCurl

/// The kinds of trace libcurl reports: text and headers (what `-v` shows) and the data (`--trace` shows all).
/// - SeeAlso: `CURLOPT_DEBUGFUNCTION`, `curl_infotype`.
public enum TraceKind: Sendable {
    /// Informational text (`* ` lines).
    case text
    /// A request header block (`> ` lines).
    case headerOut
    /// A response header line (`< ` lines).
    case headerIn
    /// Body bytes sent and received.
    case dataOut, dataIn
    /// TLS record bytes sent and received.
    case tlsDataOut, tlsDataIn

    init?(_ type: curl_infotype) {
        switch type {
        case CURLINFO_TEXT: self = .text
        case CURLINFO_HEADER_OUT: self = .headerOut
        case CURLINFO_HEADER_IN: self = .headerIn
        case CURLINFO_DATA_OUT: self = .dataOut
        case CURLINFO_DATA_IN: self = .dataIn
        case CURLINFO_SSL_DATA_OUT: self = .tlsDataOut
        case CURLINFO_SSL_DATA_IN: self = .tlsDataIn
        default: return nil
        }
    }
}
