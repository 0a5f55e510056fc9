#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Locking
import Testing

/// ``Lock``: exclusion across threads, a broadcast waking the threads that wait, a wait that ends at its deadline,
/// and the lock and unlock pair C callbacks use.
@Suite struct LockTests {
    /// A value guarded by a lock, changed on other threads.
    final class Guarded: @unchecked Sendable {
        let lock = Lock()
        var count = 0
        var ready = false
        var wokenBeforeDeadline = false
    }

    /// Runs `body` on `count` threads and waits for them all.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            Thread {
                body()
                done.signal()
            }.start()
        }
        for _ in 0..<count { done.wait() }
    }

    @Test func lockedExcludesOtherThreads() {
        let guarded = Guarded()
        onThreads(8) {
            for _ in 0..<10_000 { guarded.lock.locked { guarded.count += 1 } }
        }
        #expect(guarded.lock.locked { guarded.count } == 80_000)
    }

    @Test func aWaitWhoseDeadlineHasPassedReturnsFalse() {
        let lock = Lock()
        #expect(lock.locked { lock.wait(until: .now - .seconds(1)) } == false)
        #expect(lock.locked { lock.wait(until: .now) } == false)
    }

    @Test func aBroadcastWakesAThreadWaitingWithADeadline() {
        let guarded = Guarded(), waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            guarded.lock.locked {
                waiting.signal()
                var woken = true
                while !guarded.ready && woken { woken = guarded.lock.wait(until: .now + .seconds(600)) }
                guarded.wokenBeforeDeadline = woken
            }
            done.signal()
        }.start()
        waiting.wait()
        // The waiter held the lock when it signalled, so it is waiting once this thread has the lock.
        guarded.lock.locked {
            guarded.ready = true
            guarded.lock.broadcast()
        }
        done.wait()
        #expect(guarded.lock.locked { guarded.wokenBeforeDeadline && guarded.ready })
    }

    @Test func aBroadcastWakesEveryThreadWaitingWithoutADeadline() {
        let guarded = Guarded(), arrived = DispatchSemaphore(value: 0)
        let release = Thread {
            for _ in 0..<4 { arrived.wait() }
            guarded.lock.locked {
                guarded.ready = true
                guarded.lock.broadcast()
            }
        }
        release.start()
        onThreads(4) {
            guarded.lock.locked {
                arrived.signal()
                while !guarded.ready { guarded.lock.wait() }
                guarded.count += 1
            }
        }
        #expect(guarded.lock.locked { guarded.count } == 4)
    }

    @Test func lockAndUnlockAreThePairLockedUses() {
        let guarded = Guarded()
        onThreads(4) {
            for _ in 0..<5_000 {
                guarded.lock.lock()
                guarded.count += 1
                guarded.lock.unlock()
            }
        }
        #expect(guarded.lock.locked { guarded.count } == 20_000)
    }
}
