/// The transfers of a command line's URL slots in curl's order, made one at a time as the fetch loop asks for them.
/// Every pattern is parsed up front, so a malformed one ends the run before any transfer, but no URL is made
/// before its turn: a glob of two million URLs starts its first transfer at once and holds one URL at a time.
public struct TransferPlan: Sequence, Sendable {
    /// One slot and its parsed patterns; without them (`-g`, or nothing to expand) the slot is its one transfer.
    struct Entry: Sendable {
        let slot: URLSlot
        /// `%{urlnum}`: the slot's place on the command line.
        let number: Int
        let urls: URLGlob?
        /// `-T`'s pattern: every URL of `urls` runs for its first file, then for the next.
        let uploads: URLGlob?

        var count: Int { (urls?.count ?? 1) * (uploads?.count ?? 1) }

        /// The `index`th transfer of the slot.
        func transfer(_ index: Int) -> PlannedTransfer {
            guard let urls else {
                return PlannedTransfer(url: slot.url, output: slot.output, remoteName: slot.remoteName,
                                       operation: slot.operation, urlNumber: number, upload: slot.upload)
            }
            let (url, values) = urls.url(index % urls.count)
            return PlannedTransfer(url: url, output: slot.output.map { URLGlob.substitute(into: $0, values: values) },
                                   remoteName: slot.remoteName, operation: slot.operation, urlNumber: number,
                                   upload: uploads?.url(index / urls.count).url)
        }
    }

    let entries: [Entry]
    /// How many transfers the plan makes.
    public let count: Int

    init(_ entries: [Entry]) {
        self.entries = entries
        count = entries.reduce(0) { $0 + $1.count }
    }

    public func makeIterator() -> Iterator { Iterator(entries: entries) }

    /// Makes the plan's transfers in order, each when it is asked for.
    public struct Iterator: IteratorProtocol, Sendable {
        let entries: [Entry]
        private var entry = 0, index = 0

        init(entries: [Entry]) { self.entries = entries }

        public mutating func next() -> PlannedTransfer? {
            while entry < entries.count {
                guard index < entries[entry].count else {
                    (entry, index) = (entry + 1, 0)
                    continue
                }
                index += 1
                return entries[entry].transfer(index - 1)
            }
            return nil
        }
    }
}
