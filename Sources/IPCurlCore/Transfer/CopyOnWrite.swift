/// A value kept in a shared box and copied only when a shared copy is written, as the standard library's arrays
/// are: a large part of a request that most requests leave at its defaults (the proxy, server authentication,
/// routing, the target's TLS) costs one reference count per copy of the request instead of one step per field.
/// The box is written only while this value is its one owner, so copies on other threads never see a change.
@propertyWrapper
public struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    public init(wrappedValue: Value) { box = Box(wrappedValue) }

    public var wrappedValue: Value {
        // Read in place: a part's fields are borrowed from the box, not copied out of it with a count each.
        _read { yield box.value }
        set {
            if isKnownUniquelyReferenced(&box) { box.value = newValue } else { box = Box(newValue) }
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}
