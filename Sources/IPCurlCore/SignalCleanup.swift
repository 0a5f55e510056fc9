#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Removes registered temporary files when SIGINT or SIGTERM ends the process, ends a progress line that is on
/// screen with a newline, and exits with 130 (SIGINT) or 143 (SIGTERM), the statuses a shell reports for a
/// process those signals killed. The handler only reads preallocated memory and atomics and calls `unlink(2)`,
/// `write(2)` and `_exit(2)`, all async-signal-safe. Paths are copied into one of ``slotCount`` fixed slots.
///
///     SignalCleanup.install()
///     let token = SignalCleanup.register(path: temporaryPath)
///     defer { SignalCleanup.unregister(token) }
///
/// - SeeAlso: curl's signal behaviour: curl keeps the default SIGINT/SIGTERM disposition (it only ignores SIGPIPE),
///   so an interrupted curl leaves a partial `-o` file behind; ipcurl removes its own temporary files instead.
public enum SignalCleanup {
    /// How many paths can be registered at once.
    public static let slotCount = 16
    /// The longest path (in UTF-8 bytes, without the terminating NUL) a slot holds.
    public static let maximumPathLength = Int(PATH_MAX) - 1

    nonisolated(unsafe) fileprivate static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * Int(PATH_MAX))
    private static let reserved = Atomic<UInt64>(0)  // slot taken by register (path may still be being copied)
    fileprivate static let ready = Atomic<UInt64>(0)  // slot's path complete: the handler may unlink it
    fileprivate static let lineOnScreen = Atomic<Bool>(false)
    private static let installed = Atomic<Bool>(false)

    /// Installs the SIGINT and SIGTERM handlers once; later calls return at once. A signal the process inherited
    /// as ignored (`nohup`, a background job) stays ignored.
    public static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Touch every lazily initialised global now: the handler must never be the one to run their initialisers.
        _ = (paths, ready.load(ordering: .relaxed), lineOnScreen.load(ordering: .relaxed))
        for signal in [SIGINT, SIGTERM] {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0,
                  unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) != 1 /* SIG_IGN */ else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalCleanupHandler
            sigemptyset(&action.sa_mask)
            sigaddset(&action.sa_mask, SIGINT)
            sigaddset(&action.sa_mask, SIGTERM)
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

    /// Runs `body` (create a temporary file, then ``register(path:)`` it) with SIGINT and SIGTERM held back, so a
    /// signal cannot land between the file's creation and its registration and leave it behind.
    public static func deferringSignals<T>(_ body: () -> T) -> T {
        var hold = sigset_t(), previous = sigset_t()
        sigemptyset(&hold)
        sigaddset(&hold, SIGINT)
        sigaddset(&hold, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &hold, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
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
    SignalCleanup.runCleanup()
    if SignalCleanup.lineOnScreen.load(ordering: .acquiring) {
        var newline: UInt8 = 10
        _ = write(2, &newline, 1)
    }
    _exit(signal == SIGINT ? 130 : 143)
}
