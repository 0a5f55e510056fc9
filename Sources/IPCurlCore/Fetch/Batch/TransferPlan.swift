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

        /// How many URLs the slot's pattern makes, and how many `-T` files: the slot runs every URL for each file.
        var urlCount: UInt64 { urls?.count ?? 1 }
        var uploadCount: UInt64 { uploads?.count ?? 1 }

        /// The transfer of URL `url` for file `upload`.
        func transfer(url: UInt64, upload: UInt64) -> PlannedTransfer {
            guard let urls else {
                return PlannedTransfer(url: slot.url, output: slot.output, remoteName: slot.remoteName,
                                       operation: slot.operation, urlNumber: number, upload: slot.upload)
            }
            let (text, values) = urls.url(url)
            return PlannedTransfer(url: text, output: slot.output.map { URLGlob.substitute(into: $0, values: values) },
                                   remoteName: slot.remoteName, operation: slot.operation, urlNumber: number,
                                   upload: uploads?.url(upload).url)
        }
    }

    let entries: [Entry]
    /// How many transfers the plan makes, `Int.max` for that many or more (a glob may make up to 2^64 - 1).
    public let count: Int

    init(_ entries: [Entry]) {
        self.entries = entries
        var total: UInt64 = 0
        for entry in entries {
            let (product, overflowed) = entry.urlCount.multipliedReportingOverflow(by: entry.uploadCount)
            let (sum, past) = total.addingReportingOverflow(product)
            total = overflowed || past ? .max : sum
        }
        count = total >= UInt64(Int.max) ? .max : Int(total)
    }

    public func makeIterator() -> Iterator { Iterator(entries: entries) }

    /// Makes the plan's transfers in order, each when it is asked for.
    public struct Iterator: IteratorProtocol, Sendable {
        let entries: [Entry]
        private var entry = 0
        private var url: UInt64 = 0, upload: UInt64 = 0

        init(entries: [Entry]) { self.entries = entries }

        public mutating func next() -> PlannedTransfer? {
            while entry < entries.count {
                let current = entries[entry]
                guard upload < current.uploadCount else {
                    (entry, url, upload) = (entry + 1, 0, 0)
                    continue
                }
                let transfer = current.transfer(url: url, upload: upload)
                url += 1
                if url == current.urlCount { (url, upload) = (0, upload + 1) }
                return transfer
            }
            return nil
        }
    }
}
