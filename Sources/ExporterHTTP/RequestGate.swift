import Locking

/// The requests between entering their handler and having their response sent, and the closing of that door for
/// `HTTPServer.stop`: while stopping, responses ask for the connection to close; once closed, no handler starts.
final class RequestGate: @unchecked Sendable {
    private let lock = Lock()
    private var active = 0
    private var stopping = false
    private var closed = false

    /// Counts a request in, unless the gate has closed.
    func enter() -> Bool {
        lock.locked {
            if closed { return false }
            active += 1
            return true
        }
    }

    /// Counts a request out (its response was sent or its connection ended).
    func leave() {
        lock.locked {
            active -= 1
            if active == 0 { lock.broadcast() }
        }
    }

    var isStopping: Bool { lock.locked { stopping } }

    /// Waits up to `graceMilliseconds` for the requests inside to finish, then closes. Returns how many are still
    /// inside.
    func drain(graceMilliseconds: Int) -> Int {
        let deadline = ContinuousClock.now + .milliseconds(max(0, graceMilliseconds))
        return lock.locked {
            stopping = true
            while active > 0 && lock.wait(until: deadline) {}
            closed = true
            return active
        }
    }
}
