/// The names a user's label (`--label`, a targets file's `labels:`) may take: a Prometheus label name that none
/// of the report's own labels, nor a Pushgateway's grouping labels, already uses. One rule for the command line,
/// the targets file and the metrics writer.
public enum ReportLabel {
    /// Label names the reports set themselves (`job` and `instance` are a Pushgateway's).
    public static let reserved: Set<String> = [
        "target", "name", "ip", "family", "occurrence", "phase", "version", "host", "resolver", "answer_source",
        "connected_ip", "method", "subject", "issuer", "subject_alternative_names", "reason", "type", "statistic", "job", "instance",
    ]

    /// Why `name` cannot be a label name, or `nil` when it can.
    public static func problem(with name: String) -> String? {
        guard let first = name.utf8.first, !ASCII.isDigit(first),
              name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ASCII.isAlphanumeric($0) }) else {
            return "a label name is letters, digits and _, not starting with a digit"
        }
        if name.hasPrefix("__") { return "names starting with __ are Prometheus' own" }
        if reserved.contains(name) { return "the reports use \"\(name)\" themselves (\(reserved.sorted().joined(separator: ", ")))" }
        return nil
    }
}
