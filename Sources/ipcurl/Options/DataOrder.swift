import IPCurlCore

/// Restores the command-line order of the `-d`-family options, which argument-parser keeps per option:
/// curl joins `-d a --data-binary b -d c` as `a&b&c`.
enum DataOrder {
    static let names: [String: DataArgument.Kind] = [
        "-d": .ascii, "--data": .ascii, "--data-ascii": .ascii, "--data-raw": .raw,
        "--data-binary": .binary, "--data-urlencode": .urlencode,
    ]

    /// The values in the order the kinds appear in `arguments`; when the scan does not account for every value
    /// (an unusual spelling), the values keep their per-option order, kind after kind.
    static func interleave(arguments: [String], values: [DataArgument.Kind: [String]]) -> [DataArgument] {
        var order: [DataArgument.Kind] = []
        var skipNext = false
        for argument in arguments.prefix(while: { $0 != "--" }) {
            if skipNext { skipNext = false; continue }
            if let kind = names[argument] {
                order.append(kind)
                skipNext = true
            } else if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
                      let kind = names[String(argument[..<equals])] {
                order.append(kind)
            } else if argument.hasPrefix("-d"), !argument.hasPrefix("--") {
                order.append(.ascii)
            }
        }
        var queues = values
        let counted = DataArgument.Kind.allCases.allSatisfy { kind in
            order.filter { $0 == kind }.count == (values[kind]?.count ?? 0)
        }
        if !counted { order = DataArgument.Kind.allCases.flatMap { kind in Array(repeating: kind, count: values[kind]?.count ?? 0) } }
        return order.map { kind in DataArgument(kind, queues[kind]!.removeFirst()) }
    }
}
