import CurlKit

/// curl's `-d/--data` rules: each argument is literal text, or `@FILE` / `@-` read with CR and LF removed;
/// several arguments are joined with `&`.
/// - SeeAlso: curl's `-d/--data`, `CURLOPT_POSTFIELDS`.
public enum FormData {
    /// The body the arguments describe; throws exit 26 for an unreadable file.
    public static func join(_ arguments: [String]) throws(CurlError) -> [UInt8] {
        var body: [UInt8] = []
        for (index, argument) in arguments.enumerated() {
            if index > 0 { body.append(UInt8(ascii: "&")) }
            if argument.hasPrefix("@") {
                body += try LocalFiles.read(String(argument.dropFirst()))
                    .filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
            } else {
                body += Array(argument.utf8)
            }
        }
        return body
    }
}
