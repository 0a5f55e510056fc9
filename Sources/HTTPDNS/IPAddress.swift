#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address that has been parsed by `inet_pton`.
///
/// This is the only way an address reaches a resolve entry: a string that does not parse as one
/// address of exactly one family (no brackets, no port, no zone, no commas, no whitespace) is rejected.
/// - SeeAlso: `CURLOPT_RESOLVE`, whose `ADDRESS` field this type renders.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        case v4, v6
    }

    /// The family of this address.
    public let family: Family
    /// The network-order bytes: 4 for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses a textual address. Accepts dotted-quad IPv4 or RFC 4291 IPv6 text; rejects anything else.
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        // inet_pton is strict already, but refuse control characters and separators explicitly so the
        // intent is visible: nothing that could split or inject a resolve entry gets through.
        guard !text.isEmpty, text.utf8.count <= 45,
              text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ",") })
        else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.family = .v4
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.family = .v6
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// Builds an address from raw network-order bytes (4 or 16 of them), as found in DNS A/AAAA records.
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4: family = .v4
        case 16: family = .v6
        default: return nil
        }
        self.bytes = Array(bytes)
    }

    /// Canonical text from `inet_ntop`, e.g. `127.0.0.1` or `::1`.
    public var description: String {
        let af = family == .v4 ? AF_INET : AF_INET6
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            let ok = bytes.withUnsafeBytes { raw in
                inet_ntop(af, raw.baseAddress, buffer.baseAddress, socklen_t(buffer.count)) != nil
            }
            precondition(ok, "inet_ntop failed on a validated address")
            return String(cString: buffer.baseAddress!)
        }
    }

    /// The form used inside a resolve entry: IPv6 in brackets, IPv4 bare.
    public var resolveEntryForm: String {
        family == .v6 ? "[\(description)]" : description
    }
}

extension IPAddress {
    /// Whether a connection to this address can reach a server: not unspecified (`0.0.0.0/8`, `::`), not
    /// multicast (`224.0.0.0/4`, `ff00::/8`), not the broadcast address, and, when only IPv6 is wanted
    /// (`v6Only`), not an IPv4-mapped address (`::ffff:0:0/96`), which would be IPv4 in disguise.
    public func isUsable(v6Only: Bool = false) -> Bool {
        switch family {
        case .v4:
            return bytes[0] != 0 && bytes[0] & 0xf0 != 0xe0 && bytes != [255, 255, 255, 255]
        case .v6:
            if bytes.allSatisfy({ $0 == 0 }) || bytes[0] == 0xff { return false }
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
            return !(mapped && v6Only)
        }
    }
}
