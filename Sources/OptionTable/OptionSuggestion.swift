/// The option name closest to a mistyped one, by edit distance with transpositions (optimal string alignment):
/// `--cret` suggests `--cert`, not `--cacert`.
public enum OptionSuggestion {
    /// The closest of `names` to `typed`, when it is close enough to be what was meant (at most a third of the
    /// name's length in edits, at least one).
    public static func closest(to typed: String, among names: [String]) -> String? {
        let limit = max(1, typed.count / 3)
        let typedBytes = Array(typed.utf8)
        var best: (name: String, distance: Int)?
        // The distance is at least the difference in length, so a name that much shorter or longer is skipped
        // unmeasured (measuring costs the product of the lengths: a long mistyped name would take seconds).
        for name in names where abs(typedBytes.count - name.utf8.count) <= limit {
            let distance = self.distance(typedBytes, Array(name.utf8))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
