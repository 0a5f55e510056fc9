import CLibFuzzer
@_spi(Fuzzing) @_spi(Fuzzing) import HTTPDNS

/// Runs libFuzzer with the process's arguments, calling `body` with each input; what each target's
/// `@_cdecl("<Target>_main")` entry point returns.
public func runFuzzer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                      _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, body)
}

/// The input's bytes.
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run (libFuzzer keeps the input as a crash) when `condition` is false.
public func require(_ condition: @autoclosure () -> Bool, _ what: @autoclosure () -> String) {
    if !condition() { fatalError("invariant violated: \(what())") }
}

/// A message meant for one line (an error reason, a `-v` line) holds no line break or other control character.
public func requireOneLine(_ text: String, _ context: String) {
    require(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(context) is not one clean line: \(text.debugDescription)")
}

/// Every address re-parses from its text to itself, has `family` (when given), appears once (when `unique`), and a
/// resolve entry of them round-trips through curl's `--resolve` syntax.
public func requireValid(_ addresses: [IPAddress], family: IPAddress.Family?, unique: Bool = false, host: String,
                         _ context: String) {
    require(!unique || Set(addresses).count == addresses.count, "\(context): duplicate addresses \(addresses)")
    for address in addresses {
        require(IPAddress(address.description) == address, "\(context): \(address) does not re-parse")
        if let family { require(address.family == family, "\(context): \(address) is not of the asked family") }
    }
    // A wire name may be one libcurl never looks up (`-x.test`); those answers never become resolve entries.
    guard !addresses.isEmpty, HostName.lookupName(host) != nil else { return }
    guard let entry = ResolveEntry(host: host, port: 443, addresses: addresses) else {
        fatalError("\(context): no resolve entry for \(host) and \(addresses)")
    }
    requireRoundTrip(entry, context)
}

/// `entry`'s text is one line of `HOST:PORT:ADDR[,ADDR]...` that parses back to `entry`.
public func requireRoundTrip(_ entry: ResolveEntry, _ context: String) {
    let text = entry.description
    requireOneLine(text, "\(context): resolve entry")
    require(!text.contains(" "), "\(context): resolve entry \(text.debugDescription) has a space")
    require(text.split(separator: ",").count == entry.addresses.count, "\(context): \(text.debugDescription) has stray commas")
    require((try? ResolveEntry(parsing: text)) == entry, "\(context): \(text.debugDescription) does not parse back")
}

/// A DNSPod answer body for `www.example.com`, decrypted with `cipher` when given: only checked addresses of the
/// asked host, or a one-line reason.
public func checkDNSPod(_ body: [UInt8], cipher: SymmetricCipher?) {
    switch ParserEntryPoints.dnspod(body, cipher: cipher, host: "www.example.com") {
    case .answer(let host, let addresses, _):
        require(host == "www.example.com", "answer for \(host)")
        require(!addresses.isEmpty, "an answer without addresses")
        requireValid(addresses, family: nil, host: host, "DNSPod answer")
    case .refused(let reason):
        requireOneLine(reason, "DNSPod reason")
    }
}
