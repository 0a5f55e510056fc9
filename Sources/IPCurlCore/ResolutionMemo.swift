import HTTPDNS

/// The resolutions a run has made, by `host:port`: a few names per run (a URL's host, its redirect hops, a URL
/// list's hosts), so a list searched in order. A dictionary's hashed storage would cost every start a
/// protocol-conformance scan of the runtime for what is usually one entry.
struct ResolutionMemo {
    private var entries: [(key: String, resolution: Resolution)] = []

    /// The resolution stored for `key`; assigning `nil` forgets it.
    subscript(key: String) -> Resolution? {
        get { entries.first { $0.key == key }?.resolution }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let resolution?): entries[index].resolution = resolution
            case (let index?, nil): entries.remove(at: index)
            case (nil, let resolution?): entries.append((key, resolution))
            case (nil, nil): break
            }
        }
    }
}
