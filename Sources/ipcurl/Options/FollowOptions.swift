import ArgumentParser
import IPCurlCore

/// Redirects and retries, spelled as in curl.
struct FollowOptions: ParsableArguments {
    @Flag(name: [.customShort("L"), .customLong("location")],
          help: "Follow redirects, resolving every new host through HTTPDNS.")
    var location = false

    @Option(name: .customLong("max-redirs"), parsing: .unconditional, help: ArgumentHelp("Most redirects to follow (default 50, -1: no limit).", valueName: "NUM"))
    var maxRedirs: Int?

    @Flag(name: .customLong("location-trusted"), help: "Like -L, and send credentials to other hosts too.")
    var locationTrusted = false

    @Flag(name: .customLong("post301"), help: "Keep POST after a 301.") var post301 = false
    @Flag(name: .customLong("post302"), help: "Keep POST after a 302.") var post302 = false
    @Flag(name: .customLong("post303"), help: "Keep POST after a 303.") var post303 = false

    @Option(name: .customLong("retry"), parsing: .unconditional, help: ArgumentHelp("Retry transient failures NUM times.", valueName: "NUM"))
    var retry: Int?

    @Option(name: .customLong("retry-delay"), help: ArgumentHelp("Wait SECONDS between retries (default: 1 s doubling).", valueName: "SECONDS"))
    var retryDelay: Double?

    @Option(name: .customLong("retry-max-time"), help: ArgumentHelp("Stop retrying after SECONDS.", valueName: "SECONDS"))
    var retryMaxTime: Double?

    @Flag(name: .customLong("retry-connrefused"), help: "Retry a refused connection too.")
    var retryConnrefused = false

    @Flag(name: .customLong("retry-all-errors"), help: "Retry on any error.")
    var retryAllErrors = false

    func validate() throws {
        if let retry, retry < 0 { throw ValidationError("--retry: expected a count of 0 or more") }
        if let maxRedirs, maxRedirs < -1 { throw ValidationError("--max-redirs: expected -1 or more") }
        for (name, value) in [("--retry-delay", retryDelay), ("--retry-max-time", retryMaxTime)] {
            if let value, !(value >= 0 && value < 86_400 * 365) { throw ValidationError("\(name): expected seconds") }
        }
    }

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
