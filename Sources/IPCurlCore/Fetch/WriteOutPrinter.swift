/// Prints a rendered `-w` format to stdout/stderr and warns once per unknown variable, as curl does.
public enum WriteOutPrinter {
    /// Renders `format` with `report` and writes it out; unknown variables are told to `diagnostics`.
    public static func print(_ format: String, report: TransferReport, diagnostics: Diagnostics) {
        let rendered = WriteOut(format, report: report)
        for name in rendered.unknownVariables { diagnostics.note("unknown --write-out variable: '\(name)'") }
        for segment in rendered.segments {
            (segment.toStandardError ? DescriptorWriter.standardError : .standardOutput).write(segment.text)
        }
    }
}
