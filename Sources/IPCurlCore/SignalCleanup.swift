#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Removes registered temporary files when a terminating signal (``cleanedUpSignals``: SIGHUP, SIGINT, SIGQUIT,
/// SIGTERM, SIGALRM, SIGUSR1, SIGUSR2) ends the process, ends a progress line that is on screen with a newline,
/// and exits with 128 + the signal number (130 for SIGINT, 143 for SIGTERM), the status a shell reports for a
/// process that signal killed. The handler only reads preallocated memory and atomics and calls `unlink(2)`,
/// `write(2)` and `_exit(2)`, all async-signal-safe. Paths are copied into one of ``slotCount`` fixed slots.
///
///     SignalCleanup.install()
///     let token = SignalCleanup.register(path: temporaryPath)
///     defer { SignalCleanup.unregister(token) }
///
/// SIGPIPE is ignored from the start (``ignoreBrokenPipe()``), as curl does: a reader that goes away makes the
/// next write fail, which is curl's write error (exit 23), not a death by signal (141). SIGKILL cannot be caught:
/// the temporary files it leaves carry the process id in their names, and a later run removes them once that
/// process is gone (``processIsGone(_:)``).
/// - SeeAlso: curl's signal behaviour: curl keeps the default disposition of the terminating signals (it only
///   ignores SIGPIPE), so an interrupted curl leaves a partial `-o` file behind; ipcurl removes its own temporary
///   files instead.
public enum SignalCleanup {
    /// How many paths can be registered at once.
    public static let slotCount = 16
    /// The longest path (in UTF-8 bytes, without the terminating NUL) a slot holds.
    public static let maximumPathLength = Int(PATH_MAX) - 1

    nonisolated(unsafe) fileprivate static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * Int(PATH_MAX))
    private static let reserved = Atomic<UInt64>(0)  // slot taken by register (path may still be being copied)
    fileprivate static let ready = Atomic<UInt64>(0)  // slot's path complete: the handler may unlink it
    fileprivate static let lineOnScreen = Atomic<Bool>(false)
    /// How many ``deferringSignals(_:)`` bodies run now, and the signal the handler put off meanwhile (0: none).
    fileprivate static let deferring = Atomic<Int>(0)
    fileprivate static let pending = Atomic<Int32>(0)
    private static let installed = Atomic<Bool>(false)

    /// The signals whose default action ends the process and which the handler turns into a clean exit.
    public static let cleanedUpSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2]

    /// Ignores SIGPIPE, as curl does, so writing to a closed pipe fails with `EPIPE` (exit 23) instead of killing
    /// the process. Child processes get the default disposition back (see `ChildProcess`).
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether no process with id `pid` exists (`kill(pid, 0)` fails with `ESRCH`): a temporary file named with
    /// that id is a killed run's leftover. A process of another user still counts as alive (`EPERM`).
    static func processIsGone(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Installs the handlers of ``cleanedUpSignals`` once; later calls return at once. A signal the process
    /// inherited as ignored (`nohup`, a background job) stays ignored.
    public static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Touch every lazily initialised global now: the handler must never be the one to run their initialisers.
        _ = (paths, ready.load(ordering: .relaxed), lineOnScreen.load(ordering: .relaxed),
             deferring.load(ordering: .relaxed), pending.load(ordering: .relaxed))
        for signal in cleanedUpSignals {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0,
                  unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) != 1 /* SIG_IGN */ else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalCleanupHandler
            sigemptyset(&action.sa_mask)
            for other in cleanedUpSignals { sigaddset(&action.sa_mask, other) }
            sigaction(signal, &action, nil)
            // A parent that spawned us from a thread with these signals blocked (libdispatch workers do) passed the
            // mask on; an installed handler must also be reachable.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, signal)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        }
    }

    /// Copies `path` into a free slot and returns its token for ``unregister(_:)``; returns -1 (and the file is simply
    /// not cleaned up) when every slot is taken or the path is longer than ``maximumPathLength`` or contains NUL.
    public static func register(path: String) -> Int {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength, !bytes.contains(0) else { return -1 }
        for slot in 0..<slotCount {
            let bit: UInt64 = 1 << UInt64(slot)
            guard reserved.bitwiseOr(bit, ordering: .acquiring).oldValue & bit == 0 else { continue }
            let start = paths + slot * Int(PATH_MAX)
            for (index, byte) in bytes.enumerated() { start[index] = CChar(bitPattern: byte) }
            start[bytes.count] = 0
            ready.bitwiseOr(bit, ordering: .releasing)
            return slot
        }
        return -1
    }

    /// Runs `body` with ``cleanedUpSignals`` held back, so a signal cannot land between a temporary file's creation
    /// and its ``register(path:)`` and leave it behind, or in the middle of rewriting a file in place. The calling
    /// thread blocks them; a signal another thread takes meanwhile is noted by the handler and acted on (clean-up
    /// and exit) as soon as `body` returns.
    public static func deferringSignals<T>(_ body: () -> T) -> T {
        var hold = sigset_t(), previous = sigset_t()
        sigemptyset(&hold)
        for signal in cleanedUpSignals { sigaddset(&hold, signal) }
        pthread_sigmask(SIG_BLOCK, &hold, &previous)
        deferring.add(1, ordering: .sequentiallyConsistent)
        defer {
            if deferring.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
                let signal = pending.exchange(0, ordering: .sequentiallyConsistent)
                if signal != 0 { cleanUpAndExit(signal) }
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return body()
    }

    /// Forgets a path (the file was renamed into place or removed); -1 and unknown tokens are ignored.
    public static func unregister(_ token: Int) {
        guard (0..<slotCount).contains(token) else { return }
        let bit: UInt64 = 1 << UInt64(token)
        ready.bitwiseAnd(~bit, ordering: .releasing)
        reserved.bitwiseAnd(~bit, ordering: .releasing)
    }

    /// Unlinks every registered path whose slot bit is in `mask`; the signal handler calls it with every slot.
    /// Async-signal-safe: no allocation, no locks.
    static func runCleanup(only mask: UInt64 = .max) {
        let live = ready.load(ordering: .acquiring) & mask
        var slot = 0
        while slot < slotCount {
            if live & (1 << UInt64(slot)) != 0 { unlink(paths + slot * Int(PATH_MAX)) }
            slot += 1
        }
    }

    /// Set by ``ProgressMeter`` while its line on standard error is unfinished, so the handler ends it first.
    static func setProgressLineOnScreen(_ onScreen: Bool) {
        lineOnScreen.store(onScreen, ordering: .releasing)
    }
}

private func signalCleanupHandler(_ signal: Int32) {
    if SignalCleanup.deferring.load(ordering: .sequentiallyConsistent) > 0 {
        // Whoever takes the pending signal back out acts on it: this handler when the deferred body ended
        // meanwhile, else ``SignalCleanup/deferringSignals(_:)`` as it ends.
        SignalCleanup.pending.store(signal, ordering: .sequentiallyConsistent)
        if SignalCleanup.deferring.load(ordering: .sequentiallyConsistent) > 0 { return }
        guard SignalCleanup.pending.exchange(0, ordering: .sequentiallyConsistent) != 0 else { return }
    }
    cleanUpAndExit(signal)
}

/// Removes the registered files, ends a progress line on screen and exits with 128 + `signal`; async-signal-safe.
private func cleanUpAndExit(_ signal: Int32) -> Never {
    SignalCleanup.runCleanup()
    if SignalCleanup.lineOnScreen.load(ordering: .acquiring) {
        var newline: UInt8 = 10
        _ = write(2, &newline, 1)
    }
    _exit(128 + signal)
}
