/// `--proto`, `--proto-redir`, `--proto-default` and the HTTP authentication options against the lab's
/// `/api/auth/` routes. A Digest or NTLM exchange sends fresh random values, so those rows compare the status.
extension DifferentialRows {
    static let authAndProtocols: [DifferentialRow] = [
        .init("-s", "--proto", "=https", echo), .init("-s", "--proto", "=https", "{H}/api/echo"),
        .init("-s", "--proto", "-all,+http", "{H}/api/echo"), .init("-s", "--proto", "=foo", echo), .init("-s", "--proto", "+", echo),
        .init("-sL", "--proto-redir", "=https", "-w", "%{http_code} %{num_redirects} %{url_effective}", "{A}/api/redirect?code=302&to={H}/api/echo"),
        .init("-sL", "--proto-redir", "=http", "-w", "%{http_code} %{num_redirects}", "{A}/api/redirect?code=302&to={H}/api/echo"),
        .init("-sL", "--proto", "=https", "--proto-redir", "all", "{A}/api/redirect?code=302&to=%2Fapi%2Fecho"),
        .init("-s", "--proto-default", "https", "-w", "%{url_effective}", "a.test:{PORT}/api/echo"),
        .init("-s", "--proto-default", "nope", "a.test:{PORT}/api/echo"),
        .init("-s", "--basic", "-u", "al:pw", "{A}/api/auth/basic?user=al&pass=pw"),
        .init("-s", "--digest", "-u", "al:pw", "-o", "/dev/null", "-w", "%{http_code}", "{A}/api/auth/digest?user=al&pass=pw"),
        .init("-s", "--digest", "-u", "al:pw", "-o", "/dev/null", "-w", "%{http_code}", "{A}/api/auth/digest?user=al&pass=pw&algorithm=SHA-256"),
        .init("-s", "--digest", "-u", "al:no", "-w", "%{http_code}", "{A}/api/auth/digest?user=al&pass=pw"),
        .init("-s", "--anyauth", "-u", "al:pw", "-o", "/dev/null", "-w", "%{http_code}", "{A}/api/auth/any?user=al&pass=pw"),
        .init("-s", "-u", "al:pw", "{A}/api/auth/any?user=al&pass=pw"),
        .init("-s", "--ntlm", "-u", "al:pw", "-o", "/dev/null", "-w", "%{http_code} %{http_version}", "{A}/api/auth/ntlm"),
        .init("-s", "--negotiate", "-u", ":", "-w", "%{http_code}", "{A}/api/auth/negotiate"),
        .init("-s", "--negotiate", "--delegation", "policy", "--service-name", "HTTP", "-u", ":", "-w", "%{http_code}", "{A}/api/auth/negotiate"),
        .init("-s", "--aws-sigv4", "aws:amz:us-east-1:s3", "-w", "%{http_code}", "{A}/api/status?code=204"),
        .init("-s", "--disallow-username-in-url", "https://u:p@a.test:{PORT}/api/echo"),
        .init("-s", "--disallow-username-in-url", "-u", "u:p", echo),
    ]
}
