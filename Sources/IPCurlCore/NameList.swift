/// Values looked up by name like a dictionary's, kept as a list searched in order: a run's resolutions by
/// `host:port`. A dictionary keyed by `String` would cost every start-up
/// a protocol-conformance scan of the runtime for its hashed storage, for what holds a handful of entries.
public struct NameList<Value> {
    private var names: [String] = []
    private var values: [Value] = []

    /// No values.
    public init() {}

    /// The value named `name`; assigning `nil` removes it.
    public subscript(name: String) -> Value? {
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

extension NameList: Sendable where Value: Sendable {}
extension NameList: Equatable where Value: Equatable {}

extension NameList: ExpressibleByDictionaryLiteral {
    /// `["time_total": 1_000, ...]`; a repeated name keeps its last value.
    public init(dictionaryLiteral elements: (String, Value)...) {
        for (name, value) in elements { self[name] = value }
    }
}
