/// Prints a rendered `-w` format to stdout/stderr and warns once per unknown variable, as curl does.
public enum WriteOutPrinter {
    /// Renders `format` with `report` and writes it out.
    public static func print(_ format: String, report: TransferReport) {
        let rendered = WriteOut(format, report: report)
        for name in rendered.unknownVariables {
            DescriptorWriter.standardError.write("ipcurl: unknown --write-out variable: '\(name)'\n")
        }
        for segment in rendered.segments {
            (segment.toStandardError ? DescriptorWriter.standardError : .standardOutput).write(segment.text)
        }
    }
}
