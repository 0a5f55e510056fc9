import CCrypto
import CurlKit
import HTTPDNS

/// The facts blackbox_exporter reports about a TLS peer's leaf certificate, read with libcrypto and
/// spelled as Go's `crypto/x509` spells them, so `probe_ssl_last_chain_info` carries the same label values:
/// `subject`/`issuer` as `pkix.Name.String()` (RFC 2253 order, the named attributes in Go's fixed order), the DNS
/// names of subjectAltName joined with `,`, and the SHA-256 of the DER in lowercase hex.
/// - SeeAlso: `d2i_X509`, `X509_NAME_get_entry`, `X509_get_ext_d2i(NID_subject_alt_name)`, `X509_digest`;
///   blackbox_exporter `prober/tls.go`.
public struct PeerCertificate: Sendable, Equatable {
    /// `CN=a.test,O=ipcurl lab`.
    public let subject: String
    /// The issuer in the same form.
    public let issuer: String
    /// `a.test,www.a.test`.
    public let dnsNames: String
    /// Lowercase hex SHA-256 of the DER.
    public let fingerprintSHA256: String

    /// The certificate of `der`; `nil` when it is not one.
    public init?(der: [UInt8]) {
        guard let x509 = der.withUnsafeBufferPointer({ ccrypto_x509_parse($0.baseAddress, $0.count) }) else { return nil }
        defer { ccrypto_x509_free(x509) }
        self.init(x509: x509)
    }

    /// The certificate libcrypto holds at `x509` (an `X509 *`); `nil` when its digest cannot be made.
    init?(x509: OpaquePointer) {
        var digest = [UInt8](repeating: 0, count: Int(ccrypto_sha256_length))
        guard ccrypto_x509_sha256(x509, &digest) == 1 else { return nil }
        fingerprintSHA256 = Hex.encode(digest)
        subject = Self.name(x509, issuer: false)
        issuer = Self.name(x509, issuer: true)
        let needed = ccrypto_x509_dns_names(x509, nil, 0)
        var buffer = [CChar](repeating: 0, count: max(1, needed))
        _ = ccrypto_x509_dns_names(x509, &buffer, buffer.count)
        dnsNames = needed == 0 ? "" : buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            .joined(separator: ",")
    }

    /// Go's attribute names and the order `pkix.Name.ToRDNSequence` puts them in (C first); `String()` prints the
    /// sequence backwards.
    private static let named: [(nid: Int32, name: String)] = [
        (NID_countryName, "C"), (NID_stateOrProvinceName, "ST"), (NID_localityName, "L"), (NID_streetAddress, "STREET"),
        (NID_postalCode, "POSTALCODE"), (NID_organizationName, "O"), (NID_organizationalUnitName, "OU"),
        (NID_commonName, "CN"), (NID_serialNumber, "SERIALNUMBER"),
    ]

    /// The subject or issuer as `pkix.Name.String()`: one RDN per named attribute (its values joined with `+`), in
    /// reverse of ``named``'s order, after the other attributes (as `#`-hex of their DER value, in reverse).
    static func name(_ x509: OpaquePointer, issuer: Bool) -> String {
        var values: [Int32: [String]] = [:]
        var others: [String] = []
        let count = ccrypto_x509_name_count(x509, issuer ? 1 : 0)
        for index in 0..<max(0, count) {
            var nid: Int32 = 0, set: Int32 = 0, type: Int32 = 0, length: Int32 = 0
            var oid = [CChar](repeating: 0, count: 128)
            var raw: UnsafePointer<UInt8>?
            guard ccrypto_x509_name_entry(x509, issuer ? 1 : 0, index, &nid, &set, &type, &oid, Int32(oid.count), &raw, &length) == 1,
                  let raw else { continue }
            let bytes = Array(UnsafeBufferPointer(start: raw, count: Int(length)))
            if named.contains(where: { $0.nid == nid }) {
                values[nid, default: []].append(escaped(String(decoding: bytes, as: UTF8.self)))
            } else {
                // Go marshals the value back to DER: the string's tag, its length, its bytes.
                let der = [UInt8(truncatingIfNeeded: type)] + derLength(bytes.count) + bytes
                let dotted = oid.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                others.append(String(decoding: dotted, as: UTF8.self) + "=#" + Hex.encode(der))
            }
        }
        var rdns: [String] = named.compactMap { attribute in
            values[attribute.nid].map { $0.map { "\(attribute.name)=\($0)" }.joined(separator: "+") }
        }
        rdns += others
        return rdns.reversed().joined(separator: ",")
    }

    private static func derLength(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 { bytes.insert(UInt8(rest & 0xff), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// A value escaped as Go's `RDNSequence.String()` does: `, + " \ < > ;` always, a space first or last, `#` first.
    static func escaped(_ value: String) -> String {
        let scalars = Array(value.unicodeScalars)
        var out = ""
        for (index, scalar) in scalars.enumerated() {
            let escape = switch scalar {
            case ",", "+", "\"", "\\", "<", ">", ";": true
            case " ": index == 0 || index == scalars.count - 1
            case "#": index == 0
            default: false
            }
            if escape { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}

/// What a probe reports about the certificates of a live TLS connection, read from OpenSSL's own copies while the
/// connection is open (no `CURLOPT_CERTINFO` text to build and parse again): the leaf, the earliest notAfter of the
/// chain the peer sent (blackbox's `getEarliestCertExpiry` over `PeerCertificates`) and of the chain OpenSSL
/// verified, trust anchor included (`getLastChainExpiry` over `VerifiedChains`).
/// - SeeAlso: ``EasyHandle/livePeerCertificateChain()``, ``EasyHandle/liveVerifiedCertificateChain()``,
///   `X509_get0_notAfter`.
struct PeerChain: Sendable, Equatable {
    /// Go's zero `time.Time` in Unix seconds: what blackbox reports as the verified chain's expiry when none was
    /// verified (`insecure_skip_verify`).
    static let goZeroTime: Int64 = -62_135_596_800

    /// The leaf.
    let leaf: PeerCertificate
    /// The earliest notAfter over the chain the peer sent (Unix seconds).
    let earliestExpiry: Int64
    /// The earliest notAfter over the verified chain; ``goZeroTime`` when none was verified.
    let verifiedChainExpiry: Int64

    /// The chain of `handle`'s live connection; `nil` without one.
    init?(_ handle: EasyHandle) {
        guard let chain = handle.livePeerCertificateChain(), ccrypto_chain_count(chain) > 0,
              let first = ccrypto_chain_at(chain, 0), let leaf = PeerCertificate(x509: first) else { return nil }
        guard let earliest = Self.earliestExpiry(chain) else { return nil }
        self.leaf = leaf
        earliestExpiry = earliest
        verifiedChainExpiry = handle.liveVerifiedCertificateChain().flatMap(Self.earliestExpiry) ?? Self.goZeroTime
    }

    /// The earliest readable notAfter of `chain` (a `STACK_OF(X509) *`); `nil` when it has none.
    private static func earliestExpiry(_ chain: UnsafeMutableRawPointer) -> Int64? {
        var earliest = Int64.max
        for index in 0..<ccrypto_chain_count(chain) {
            guard let certificate = ccrypto_chain_at(chain, index) else { continue }
            let notAfter = ccrypto_x509_not_after(certificate)
            if notAfter != Int64.min { earliest = min(earliest, Int64(notAfter)) }
        }
        return earliest == Int64.max ? nil : earliest
    }
}
