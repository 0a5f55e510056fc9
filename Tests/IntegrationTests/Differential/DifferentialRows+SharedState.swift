/// What the transfers of one command line share, as curl's share handle: connections (`%{num_connects}` is 1 for
/// the first URL of a host and 0 after it), cookies (a cookie set by one URL is sent to the next when the cookie
/// engine is on; the jar holds every transfer's cookies) and TLS sessions (`/api/echo/tls` shows `x-lab-tls-reused`:
/// with `Connection: close` the second transfer connects again and resumes the first one's session), across `--next` too.
extension DifferentialRows {
    static let tlsEcho = "{A}/api/echo/tls"
    static let closingHTTP1 = ["-s", "--http1.1", "-H", "Connection: close"]

    static let sharedState: [DifferentialRow] = [
        DifferentialRow(arguments: closingHTTP1 + [tlsEcho, tlsEcho]),
        DifferentialRow(arguments: closingHTTP1 + [tlsEcho, "--next", "{PINS}"] + closingHTTP1 + [tlsEcho]),
        DifferentialRow(arguments: closingHTTP1 + ["-o", "/dev/null", "{B}/api/echo/tls", tlsEcho]),
        .init("-s", "-w", "%{num_connects} ", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null", echo, echo, echo),
        .init("-s", "-w", "%{num_connects} ", "-o", "/dev/null", "-o", "/dev/null", "{H}/api/echo", "{H}/api/echo"),
        .init("-s", "-w", "%{num_connects} ", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null", echo, "{B}/api/echo", echo),
        .init("-s", "-w", "%{num_connects} ", "-o", "/dev/null", "-o", "/dev/null", echo, echo, viaDoH: true),
        .init("-s", "-w", "%{num_connects} ", "-o", "/dev/null", "{A}/api/echo?n=[1-3]"),
        .init("-s", "-w", "%{num_connects} ", "-o", "/dev/null", echo, "--next", "{PINS}", "-s", "-w", "%{num_connects}", "-o", "/dev/null", echo),
        .init("-s", "-b", "", "-o", "/dev/null", "{A}/api/set-cookie?k=v", echo),
        .init("-s", "-b", "", "-o", "/dev/null", "{A}/api/set-cookie?k=v", "{B}/api/echo"),
        .init("-s", "-o", "/dev/null", "{A}/api/set-cookie?k=v", echo),
        .init("-s", "-c", "{DIR}/jar", "-o", "/dev/null", "-o", "/dev/null", "{A}/api/set-cookie?k=v", "{A}/api/set-cookie?z=w"),
        .init("-s", "-c", "{DIR}/jar", "-o", "/dev/null", "{A}/api/set-cookie?n=[1-3]"),
        .init("-s", "-b", "", "-o", "/dev/null", "{A}/api/set-cookie?k=v", "--next", "{PINS}", "-s", "-b", "", echo),
        .init("-s", "-b", "", "-o", "/dev/null", "{A}/api/set-cookie?k=v", "--next", "{PINS}", "-s", echo),
        .init("-s", "-c", "{DIR}/jar", "-o", "/dev/null", "{A}/api/set-cookie?a=1", "--next", "{PINS}", "-s", "-c", "{DIR}/jar",
              "-o", "/dev/null", "{A}/api/set-cookie?b=2"),
        .init("-s", "-b", "{DIR}/cookies", "-c", "{DIR}/jar", "-o", "/dev/null", "{A}/api/set-cookie?k=v", echo),
    ]
}
