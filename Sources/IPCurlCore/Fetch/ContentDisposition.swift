/// The file name a response suggests in `Content-Disposition`, as curl's `-J` takes it: the `filename=`
/// parameter (quoted or up to `;`), without any directory part; no `%` decoding.
/// - SeeAlso: curl's `-J/--remote-header-name`, `src/tool_cb_hdr.c` (`parse_filename`).
enum ContentDisposition {
    /// The file name in `value`, or `nil` when there is none (or nothing is left once directories are removed).
    static func filename(_ value: String?) -> String? {
        guard let value,
              let start = value.indices.first(where: { value[$0...].prefix(9).lowercased() == "filename=" }) else { return nil }
        var rest = value[start...].dropFirst(9)
        var name: Substring
        if rest.first == "\"" {
            rest = rest.dropFirst()
            name = rest.prefix { $0 != "\"" }
        } else {
            name = rest.prefix { $0 != ";" }
            while let last = name.last, last == " " || last == "\t" || last == "\r" || last == "\n" { name = name.dropLast() }
        }
        if let slash = name.lastIndex(where: { $0 == "/" || $0 == "\\" }) { name = name[name.index(after: slash)...] }
        return name.isEmpty ? nil : String(name)
    }

    /// `name` in the directory of `path` (the `-O` name, which carries `--output-dir`).
    static func placed(_ name: String, beside path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return name }
        return String(path[...slash]) + name
    }
}
