import IPCurlCore
import OptionTable

/// Redirects and retries, spelled as in curl.
struct FollowOptions: Sendable {
    var location = false
    var maxRedirs: Int?
    var locationTrusted = false
    var post301 = false, post302 = false, post303 = false
    var retry: Int?
    var retryDelay: Double?
    var retryMaxTime: Double?
    var retryConnrefused = false
    var retryAllErrors = false

    static let redirects = OptionCategory("redirect", "Following redirects")
    static let retries = OptionCategory("retry", "Retrying failed transfers")

    static let rows: [OptionRow<FollowOptions>] = [
        OptionRow("location", "L", .boolean, "", redirects, "Follow redirects, resolving every new host through HTTPDNS",
                  important: true) { $0.location = $1.isOn },
        OptionRow("max-redirs", nil, .number, "num", redirects, "Most redirects to follow (default 50, -1: no limit)") {
            $0.maxRedirs = try $1.integer(in: -1...Int(Int32.max))
        },
        OptionRow("location-trusted", nil, .boolean, "", redirects, "Like -L, and send credentials to other hosts too") {
            $0.locationTrusted = $1.isOn
        },
        OptionRow("post301", nil, .boolean, "", redirects, "Keep POST after a 301") { $0.post301 = $1.isOn },
        OptionRow("post302", nil, .boolean, "", redirects, "Keep POST after a 302") { $0.post302 = $1.isOn },
        OptionRow("post303", nil, .boolean, "", redirects, "Keep POST after a 303") { $0.post303 = $1.isOn },
        OptionRow("retry", nil, .number, "num", retries, "Retry transient failures NUM times") {
            $0.retry = try $1.integer(in: 0...Int(Int32.max))
        },
        OptionRow("retry-delay", nil, .seconds, "seconds", retries, "Wait SECONDS between retries (default: 1 s doubling)") {
            $0.retryDelay = try $1.seconds()
        },
        OptionRow("retry-max-time", nil, .seconds, "seconds", retries, "Stop retrying after SECONDS") {
            $0.retryMaxTime = try $1.seconds()
        },
        OptionRow("retry-connrefused", nil, .boolean, "", retries, "Retry a refused connection too") {
            $0.retryConnrefused = $1.isOn
        },
        OptionRow("retry-all-errors", nil, .boolean, "", retries, "Retry on any error") { $0.retryAllErrors = $1.isOn },
    ]

    /// Fills the redirect and retry rules of `request`.
    func apply(to request: inout FetchRequest) {
        request.redirects.follow = location || locationTrusted
        request.redirects.trusted = locationTrusted
        if let maxRedirs { request.redirects.maxRedirects = maxRedirs }
        (request.redirects.keepPost301, request.redirects.keepPost302, request.redirects.keepPost303) = (post301, post302, post303)
        request.retry.count = retry ?? 0
        request.retry.delayMS = retryDelay.flatMap { $0 > 0 ? Int($0 * 1000) : nil }
        request.retry.maxTimeMS = retryMaxTime.flatMap { $0 > 0 ? Int($0 * 1000) : nil }
        request.retry.connectionRefused = retryConnrefused
        request.retry.allErrors = retryAllErrors
    }
}
