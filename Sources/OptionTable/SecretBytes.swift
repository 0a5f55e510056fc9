/// Which bytes of an option's value are a credential, blanked in the process's argv once the value is read (as
/// curl blanks `-u`): the rest stays as typed, so `ps` still shows what the option is (a header's name, a URL's
/// host).
public struct SecretBytes: Sendable {
    /// The byte offsets of `value`'s secret parts, in order and not overlapping.
    public let ranges: @Sendable (_ value: String) -> [Range<Int>]

    /// The parts of each value that `ranges` picks.
    public init(_ ranges: @escaping @Sendable (_ value: String) -> [Range<Int>]) {
        self.ranges = ranges
    }

    /// The whole value (`-u user:password`).
    public static let whole = SecretBytes { $0.utf8.isEmpty ? [] : [0..<$0.utf8.count] }
}
