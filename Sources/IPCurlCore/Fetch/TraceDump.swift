#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// Where `--trace`/`--trace-ascii` write and how: curl's dump format, hex and text (`--trace`) or text only
/// (`--trace-ascii`), with `--trace-time` stamps. The values of `Authorization`, `Proxy-Authorization` and `Cookie`
/// are dumped as `[redacted]` in header blocks and info lines alike (``CredentialRedaction``, as `-v` shows them);
/// every other byte is dumped as libcurl passed it, as curl does: a trace file is data, not terminal output.
/// - SeeAlso: curl's `--trace`, `--trace-ascii`, `--trace-time`, `src/tool_cb_dbg.c`.
public struct TraceOutput: Sendable, Equatable {
    /// The open file descriptor the dump goes to (the run's `--trace` file, or 1 for `-`).
    public var descriptor: Int32
    /// `--trace-ascii`: no hex column, CR LF ends a dump line.
    public var asciiOnly: Bool
    /// `--trace-time`: every dump starts with the local time.
    public var stamped: Bool

    public init(descriptor: Int32, asciiOnly: Bool, stamped: Bool) {
        self.descriptor = descriptor
        self.asciiOnly = asciiOnly
        self.stamped = stamped
    }

    /// One trace callback in curl's dump format; `redaction` is the handle's dump so far (``VerboseTrace``'s).
    public func render(_ kind: TraceKind, _ bytes: UnsafeRawBufferPointer,
                       redaction: CredentialRedaction.Stream = CredentialRedaction.Stream()) -> String {
        let stamp = stamped ? Self.stamp() : ""
        let title: String
        switch kind {
        case .text: return stamp + "== Info: " + String(decoding: redaction.redacted(kind, bytes), as: UTF8.self)
        case .headerOut: title = "=> Send header"
        case .headerIn: title = "<= Recv header"
        case .dataOut: title = "=> Send data"
        case .dataIn: title = "<= Recv data"
        case .tlsDataOut: title = "=> Send SSL data"
        case .tlsDataIn: title = "<= Recv SSL data"
        }
        let data = kind == .headerOut || kind == .headerIn ? redaction.redacted(kind, bytes) : Array(bytes)
        var out = "\(stamp)\(title), \(data.count) bytes (0x\(String(data.count, radix: 16)))\n"
        let width = asciiOnly ? 0x40 : 0x10
        var index = 0
        while index < data.count {
            out += Self.hex4(index) + ": "
            if !asciiOnly {
                for column in 0..<width {
                    out += index + column < data.count ? Self.hex2(data[index + column]) + " " : "   "
                }
            }
            var column = 0
            var next = index + width
            while column < width, index + column < data.count {
                let at = index + column
                if asciiOnly, at + 1 < data.count, data[at] == 0x0D, data[at + 1] == 0x0A {
                    next = at + 2
                    break
                }
                out.append(data[at] >= 0x20 && data[at] < 0x80 ? Character(Unicode.Scalar(data[at])) : ".")
                if asciiOnly, at + 2 < data.count, data[at + 1] == 0x0D, data[at + 2] == 0x0A {
                    next = at + 3
                    break
                }
                column += 1
            }
            out += "\n"
            index = next
        }
        return out
    }

    private static func hex2(_ byte: UInt8) -> String { (byte < 16 ? "0" : "") + String(byte, radix: 16) }

    private static func hex4(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `HH:MM:SS.uuuuuu ` in local time, as curl stamps trace lines.
    private static func stamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let micros = String(now.tv_nsec / 1000)
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(String(repeating: "0", count: 6 - micros.count))\(micros) "
    }
}
