import CurlKit

/// One exit status of ipcurl: the code (`128+N` for the signal row), curl's name for it without `CURLE_`, and what
/// it means here.
public struct ExitCodeRow: Sendable {
    public let code: String
    public let name: String
    public let summary: String
}

/// The one table of ipcurl's exit statuses — curl's codes, with what each means for ipcurl. The man page's
/// "Exit status" section and `ipcurl --help exit` are rendered from it, the README's table is compared with it
/// row by row, and ``code(for:)`` is the only place a subcommand's ending becomes a number.
/// - SeeAlso: curl's "EXIT CODES" man page section; libcurl's `CURLcode`.
enum ExitCodes {
    /// Success.
    static let success: Int32 = 0
    /// `check`: at least one probe failed its expectations (curl's 1, the code no check failure can mean otherwise).
    static let probeFailed: Int32 = 1

    static let table: [ExitCodeRow] = [
        ExitCodeRow(code: "0", name: "OK", summary: "Success."),
        ExitCodeRow(code: "1", name: "UNSUPPORTED_PROTOCOL",
                    summary: "Unsupported protocol: only http and https, also for a redirect's target. For check: a probe failed."),
        ExitCodeRow(code: "2", name: "usage",
                    summary: "Usage error, one line on stderr: an unknown option, a missing or malformed value, options that exclude each other, a bad targets file."),
        ExitCodeRow(code: "3", name: "URL_MALFORMAT", summary: "Malformed URL or glob pattern."),
        ExitCodeRow(code: "4", name: "NOT_BUILT_IN",
                    summary: "The linked libcurl or libcrypto lacks a feature (libcurl older than 7.85; DES without OpenSSL's legacy provider)."),
        ExitCodeRow(code: "6", name: "COULDNT_RESOLVE_HOST",
                    summary: "Could not resolve: HTTPDNS gave no usable address and the system resolver failed too, or --no-fallback was given; the message says why."),
        ExitCodeRow(code: "7", name: "COULDNT_CONNECT", summary: "Could not connect."),
        ExitCodeRow(code: "18", name: "PARTIAL_FILE", summary: "The body ended before the length the server announced."),
        ExitCodeRow(code: "22", name: "HTTP_RETURNED_ERROR", summary: "HTTP status 400 or more with -f or --fail-with-body."),
        ExitCodeRow(code: "23", name: "WRITE_ERROR",
                    summary: "Could not write the output (-o, -O, -J, -D, stdout, a reader that closed the pipe), or -O found no file name in the URL."),
        ExitCodeRow(code: "26", name: "READ_ERROR",
                    summary: "Could not read a file: a body (-d @file, -F name=@file, -T file), -K, -H @file, -w @file or a secret file."),
        ExitCodeRow(code: "28", name: "OPERATION_TIMEDOUT",
                    summary: "Timeout: --max-time, which covers resolution too (for check: each probe, its name's resolution included)."),
        ExitCodeRow(code: "33", name: "RANGE_ERROR", summary: "-C: the server does not do byte ranges."),
        ExitCodeRow(code: "35", name: "SSL_CONNECT_ERROR", summary: "TLS handshake failed (on the last address tried)."),
        ExitCodeRow(code: "47", name: "TOO_MANY_REDIRECTS", summary: "More redirects than --max-redirs allows."),
        ExitCodeRow(code: "49", name: "SETOPT_OPTION_SYNTAX", summary: "A --resolve entry that does not parse, as libcurl refuses it for curl."),
        ExitCodeRow(code: "52", name: "GOT_NOTHING", summary: "The server closed the connection without a response."),
        ExitCodeRow(code: "55", name: "SEND_ERROR", summary: "Sending the request failed: the connection broke."),
        ExitCodeRow(code: "56", name: "RECV_ERROR",
                    summary: "Receiving failed: the connection broke, or a redirect chain's response headers passed 300 KiB, as libcurl counts them (with --max-redirs -1, how an endless loop ends)."),
        ExitCodeRow(code: "58", name: "SSL_CERTPROBLEM", summary: "A client certificate or key that cannot be used (-E, --key, --pass)."),
        ExitCodeRow(code: "59", name: "SSL_CIPHER", summary: "A cipher list OpenSSL refuses."),
        ExitCodeRow(code: "60", name: "PEER_FAILED_VERIFICATION",
                    summary: "Server certificate not verified for the host name (on the last address tried)."),
        ExitCodeRow(code: "63", name: "FILESIZE_EXCEEDED", summary: "Larger than --max-filesize."),
        ExitCodeRow(code: "65", name: "SEND_FAIL_REWIND",
                    summary: "A -T - body had to be sent again (307/308 redirect, retry) after more than 64 MiB of stdin."),
        ExitCodeRow(code: "77", name: "SSL_CACERT_BADFILE", summary: "CA file problem (--cacert, CURL_CA_BUNDLE, SSL_CERT_FILE)."),
        ExitCodeRow(code: "90", name: "SSL_PINNEDPUBKEYNOTMATCH", summary: "--pinnedpubkey did not match."),
        ExitCodeRow(code: "91", name: "SSL_INVALIDCERTSTATUS", summary: "--cert-status: no valid OCSP response."),
        ExitCodeRow(code: "128+N", name: "signal",
                    summary: "Interrupted by signal N (130 SIGINT, 143 SIGTERM, ...) while writing -o, -O or -D; the temporary files were removed."),
    ]

    /// The process's exit status for how a subcommand ended.
    static func code(for completion: Completion) -> Int32 {
        switch completion {
        case .success: success
        case .probesFailed: probeFailed
        case .failed(let error), .refused(let error), .reported(let error): error.exitCode
        }
    }

    /// `ipcurl --help exit`: the table as aligned lines.
    static func helpText() -> String {
        let width = (table.map { $0.code.count + $0.name.count }.max() ?? 0) + 3
        return "Exit codes (curl's):\n" + table.map { row in
            let head = row.code + " " + row.name
            return " " + head + String(repeating: " ", count: max(1, width - head.count)) + row.summary + "\n"
        }.joined()
    }
}
