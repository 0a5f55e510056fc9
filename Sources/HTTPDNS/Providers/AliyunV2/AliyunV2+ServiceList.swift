extension AliyunV2 {
    /// The TLS name of Alibaba's boot and service addresses: a server given by IP over https is verified as this
    /// name, with the name pinned to the IP (`CURLOPT_RESOLVE`), as the C SDK does.
    /// - SeeAlso: "调度服务接口" §2 (the certificate host is `resolvers.httpdns.aliyuncs.com`); the C SDK
    ///   `src/hdns_define.h` (`HDNS_SSL_CA_HOST`) and `src/hdns_transport.c`.
    public static let serviceName = "resolvers.httpdns.aliyuncs.com"

    /// The boot ("schedule center") addresses the SDKs embed for the mainland region, IPv4 then IPv6: asked for an
    /// account's service addresses (``ServiceList``) when no server is given.
    /// - SeeAlso: the Android SDK `config/region/DefaultRegionServer.java`, the C SDK `src/hdns_config.c`, the Node
    ///   SDK `src/config.ts` (the iOS SDK lists `2401:b180:2000:30::1c` twice instead of `2408:4003:1f40::30a`).
    public static let bootAddresses: [IPAddress] = [
        "203.107.1.1", "203.107.1.97", "203.107.1.100", "203.119.238.240", "106.11.25.239", "59.82.99.47",
        "2401:b180:7001::31d", "2408:4003:1f40::30a", "2401:b180:2000:20::10", "2401:b180:2000:30::1c",
    ].compactMap { IPAddress($0) }

    /// ``bootAddresses`` as server URLs: `https://ADDRESS:443`.
    public static var bootServerURLs: [String] { bootAddresses.map { "https://\($0.resolveEntryForm):443" } }

    /// The discovery request for this account, sent to a boot address: `/ACCOUNT/ss?region=global` (the nearest
    /// region, as every SDK asks).
    public var discoveryPath: String { "/\(account)/ss?region=global" }

    /// An account's service addresses as a boot address gave them (`GET /ACCOUNT/ss`), and when.
    ///
    /// The answer is read strictly: one JSON object, `service_ip` IPv4 and `service_ipv6` IPv6 address strings, each
    /// usable (``IPAddress/isUsable(v6Only:)``), `service_ip_port`/`service_ipv6_port` the port of the address at the
    /// same index (the scheme's port where there is none), at most ``maximumAddresses`` in all, at least one. Any
    /// address or port that is not one refuses the whole answer. `"service_status":"disable"` means the account's
    /// service is switched off (the Android SDK then stops resolving).
    /// - SeeAlso: "调度服务接口" §3; the Android SDK `serverip/UpdateRegionServerResponse.java` and
    ///   `config/ServerConfig.java` (`getPort`).
    public struct ServiceList: Sendable, Equatable {
        /// The most addresses a list may hold.
        public static let maximumAddresses = 32

        /// One service address and its port.
        public struct Address: Sendable, Equatable, CustomStringConvertible {
            /// The address.
            public let address: IPAddress
            /// The TCP port.
            public let port: Int
            /// `ADDRESS:PORT`, IPv6 in brackets.
            public var description: String { "\(address.resolveEntryForm):\(port)" }
        }

        /// `http` or `https`: the scheme of the boot server that answered, used for the service addresses too.
        public let scheme: String
        /// The addresses, IPv4 first, in the order given.
        public let addresses: [Address]
        /// The label of the boot server that gave them (``HTTPDNSServer/label``).
        public let boot: String
        /// Unix time the list was received.
        public let discovered: Int64

        /// A list with these parts; `boot` loses any control characters so a record stays one line per field.
        public init(scheme: String, addresses: [Address], boot: String, discovered: Int64) {
            self.scheme = scheme
            self.addresses = addresses
            self.boot = String(boot.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
            self.discovered = discovered
        }

        /// The list in a `/ss` answer `body` from `boot` over `scheme`; throws why it is not one.
        init(parsing body: [UInt8], scheme: String, boot: String, discovered: Int64) throws(FieldError) {
            let object: JSONValue
            do { object = try JSONValue.parse(body) } catch { throw FieldError(error.description) }
            guard case .object = object else { throw FieldError("the answer is \(AliyunV2.article(object)), not an object") }
            if case .string(let status)? = object["service_status"], status == "disable" {
                throw FieldError("the account's HTTPDNS service is disabled (\"service_status\":\"disable\")")
            }
            let defaultPort = scheme == "https" ? 443 : 80
            var addresses: [Address] = []
            for (key, portKey, family) in [("service_ip", "service_ip_port", IPAddress.Family.v4),
                                           ("service_ipv6", "service_ipv6_port", .v6)] {
                let ports = try Self.ports(object[portKey], portKey)
                for (index, address) in try AnswerFields.addresses(object, key, family: family).get().enumerated() {
                    guard address.isUsable() else { throw FieldError("\(address) in \"\(key)\" is not a usable address") }
                    let next = Address(address: address, port: index < ports.count ? ports[index] : defaultPort)
                    if !addresses.contains(next) { addresses.append(next) }
                }
            }
            guard !addresses.isEmpty else { throw FieldError("no service address in the answer") }
            guard addresses.count <= Self.maximumAddresses else {
                throw FieldError("\(addresses.count) service addresses, more than \(Self.maximumAddresses)")
            }
            self.init(scheme: scheme, addresses: addresses, boot: boot, discovered: discovered)
        }

        /// The addresses as servers over ``scheme``; over https each is verified as `serviceName`.
        public func servers(serviceName: String = AliyunV2.serviceName) -> [HTTPDNSServer] {
            addresses.compactMap { try? HTTPDNSServer(scheme: scheme, host: $0.address.description, port: $0.port,
                                                      serviceName: serviceName, setting: .vendorServer) }
        }

        /// How old the list is at `now`, for messages: `12 s`, `5 min`, `2 h 5 min`.
        public func age(at now: Int64) -> String {
            let seconds = max(0, now - discovered)
            if seconds < 60 { return "\(seconds) s" }
            if seconds < 3600 { return "\(seconds / 60) min" }
            return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        }

        private static func ports(_ value: JSONValue?, _ key: String) throws(FieldError) -> [Int] {
            guard let value, value != .null else { return [] }
            guard case .array(let items) = value else { throw FieldError("\"\(key)\" is \(AliyunV2.article(value)), not an array") }
            var ports: [Int] = []
            for item in items {
                guard case .integer(let port) = item, (1...65_535).contains(port) else {
                    throw FieldError("\"\(key)\" holds \(AliyunV2.article(item)), not a port 1-65535")
                }
                ports.append(Int(port))
            }
            return ports
        }
    }
}
