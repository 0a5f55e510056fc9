import ExporterHTTP
import Foundation

/// A handler that answers with what it was asked, one fact a line, and counts its calls.
final class Echo: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var calls: Int { lock.withLock { count } }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        lock.withLock { count += 1 }
        var lines = ["method \(request.method)", "path \(request.path)"]
        lines += request.query.map { "query \($0.name)=\($0.value)" }
        lines += request.headers.map { "header \($0.name): \($0.value)" }
        lines.append("remote \(request.remoteAddress)")
        lines.append("user \(request.user ?? "-")")
        if let module = request.parameter("module") { lines.append("first module=\(module)") }
        if let probe = request.header("x-probe") { lines.append("x-probe \(probe)") }
        return HTTPResponse(status: 200, body: lines.joined(separator: "\n") + "\n", headers: [("X-Echo", "yes")])
    }
}

/// Holds every party until `parties` have arrived: proves requests run at once without measuring time.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) { self.parties = parties }

    /// Arrives and waits for the others; false if they did not all come within a minute (the test then fails).
    func arriveAndWait() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let limit = Date(timeIntervalSinceNow: 60)
        while arrived < parties {
            if !condition.wait(until: limit) { return false }
        }
        return true
    }
}
