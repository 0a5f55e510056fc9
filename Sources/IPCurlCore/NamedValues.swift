/// Named whole numbers (`-w`'s `time_total`, `size_download`, ...), looked up by name like a dictionary.
///
/// A list searched in order: there are about a dozen names, and a dictionary keyed by `String` would cost every
/// start-up a protocol-conformance scan of the runtime for its hashed storage.
public struct NamedValues: Sendable, Equatable {
    private var names: [String] = []
    private var values: [Int64] = []

    /// No values.
    public init() {}

    /// The value named `name`; assigning `nil` removes it.
    public subscript(name: String) -> Int64? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            switch (names.firstIndex(of: name), newValue) {
            case (let index?, let value?): values[index] = value
            case (let index?, nil):
                names.remove(at: index)
                values.remove(at: index)
            case (nil, let value?):
                names.append(name)
                values.append(value)
            case (nil, nil): break
            }
        }
    }
}

extension NamedValues: ExpressibleByDictionaryLiteral {
    /// `["time_total": 1_000, ...]`; a repeated name keeps its last value.
    public init(dictionaryLiteral elements: (String, Int64)...) {
        for (name, value) in elements { self[name] = value }
    }
}
