/// The value an option row receives: the text given (empty for a switch), whether a boolean was turned on or
/// off, and how the option was spelled, for messages.
public struct OptionArgument: Sendable {
    /// The value as typed; empty for options that take none.
    public let text: String
    /// `false` for `--no-NAME`; `true` otherwise.
    public let isOn: Bool
    /// The option as the user typed it (`-m`, `--max-time`), for messages.
    public let spelling: String

    public init(text: String, isOn: Bool = true, spelling: String) {
        self.text = text
        self.isOn = isOn
        self.spelling = spelling
    }

    /// A usage error about this option: `option --max-time: expected a proper numerical parameter`.
    public func problem(_ text: String) -> OptionError { OptionError("option \(spelling): \(text)") }

    /// A whole number within `range` (curl's `str2num`: optional sign, decimal digits only).
    public func integer(in range: ClosedRange<Int> = Int.min...Int.max) throws(OptionError) -> Int {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let magnitude = Int(digits)
        else { throw problem("expected a proper numerical parameter") }
        let value = negative ? -magnitude : magnitude
        guard range.contains(value) else {
            throw problem(range.upperBound == Int.max ? "expected \(range.lowerBound) or more" : "expected \(range.lowerBound)-\(range.upperBound)")
        }
        return value
    }

    /// A non-negative decimal number of seconds (curl's `str2udouble`: digits with an optional fraction).
    public func seconds(maximum: Double = 86_400 * 365) throws(OptionError) -> Double {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard !text.isEmpty, text != ".", parts.allSatisfy(isDigits), let value = Double(text) else {
            throw problem("expected a proper numerical parameter")
        }
        guard value <= maximum else { throw problem("the number is too large") }
        return value
    }
}

/// A command-line or config-file mistake: one line of text, exit 2 (curl's `PARAM_*` errors).
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
