#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import Foundation
import HTTPDNS
@testable import IPCurlCore
import Locking
import Testing

/// ``SharedAnswers``: one lookup per name at a time however many probes ask, answers held for their TTL, failures
/// and TTL-0 answers not held, a probe waiting for another's lookup bounded by its own time limit.
@Suite struct SharedAnswersTests {
    static func lookup(ttl: UInt32) -> NameLookup {
        let answer = ResolverAnswer(host: "a.test", addresses: [IPAddress("192.0.2.1")!], ttl: ttl,
                                    source: .provider(.doh, server: "https://doh.test/dns-query"))
        return NameLookup(resolution: Resolution(entry: ResolveEntry(answer, port: 443), answer: answer, cache: .miss), microseconds: 1234)
    }

    /// A time limit no test reaches.
    static let ample = TimeBudget(limitMS: 600_000)

    /// Calls counted across threads.
    final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var value = 0
        func increment() { lock.locked { value += 1 } }
        var count: Int { lock.locked { value } }
    }

    @Test func eightProbesOfOneNameMakeOneLookup() {
        let answers = SharedAnswers(), calls = Counter()
        var threads: [pthread_t] = []
        final class Job: @unchecked Sendable {
            let work: () -> Void
            init(_ work: @escaping () -> Void) { self.work = work }
        }
        for _ in 0..<8 {
            let job = Job {
                _ = try? answers.lookup(host: "a.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in
                    calls.increment()
                    usleep(100_000)  // a slow HTTPDNS server: the other seven arrive meanwhile
                    return Self.lookup(ttl: 60)
                }
            }
            var thread = pthread_t()
            let box = Unmanaged.passRetained(job).toOpaque()
            pthread_create(&thread, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.work()
                return nil
            }, box)
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        #expect(calls.count == 1)
    }

    @Test func anAnswerIsHeldForItsTTLAsAHitThatCostNoLookup() throws {
        let answers = SharedAnswers(), calls = Counter()
        for _ in 0..<3 {
            let got = try answers.lookup(host: "a.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in
                calls.increment()
                return Self.lookup(ttl: 60)
            }
            #expect(got.resolution.entry?.addresses.map(\.description) == ["192.0.2.1"])
        }
        #expect(calls.count == 1)
        let held = try answers.lookup(host: "a.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in Self.lookup(ttl: 60) }
        guard case .hit = held.resolution.cache else { Issue.record("not a hit: \(held.resolution.cache)"); return }
        #expect(held.microseconds == 0)
        // Another port is another name.
        _ = try answers.lookup(host: "a.test", port: 8443, within: Self.ample) { () throws(CurlError) -> NameLookup in
            calls.increment()
            return Self.lookup(ttl: 60)
        }
        #expect(calls.count == 2)
    }

    @Test func failuresAndTTLZeroAnswersAreAskedAgain() {
        let answers = SharedAnswers(), calls = Counter()
        for _ in 0..<2 {
            _ = try? answers.lookup(host: "b.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in
                calls.increment()
                throw CurlError.couldntResolveHost
            }
            _ = try? answers.lookup(host: "c.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in
                calls.increment()
                return Self.lookup(ttl: 0)
            }
        }
        #expect(calls.count == 4)
    }

    /// A probe whose time runs out while another probe resolves its name gets the timeout a lone probe gets (exit 28,
    /// "Operation timed out after N milliseconds while resolving HOST"), without asking HTTPDNS itself; the other
    /// probe's answer is held as usual.
    @Test func aWaitingProbeEndsAtItsOwnDeadline() throws {
        let answers = SharedAnswers(), calls = Counter()
        let resolving = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let leader = Thread {
            _ = try? answers.lookup(host: "a.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in
                calls.increment()
                resolving.signal()
                release.wait()  // an HTTPDNS server that answers only when the test says so
                return Self.lookup(ttl: 60)
            }
            done.signal()
        }
        leader.start()
        resolving.wait()
        let budget = TimeBudget(limitMS: 50)
        do {
            _ = try answers.lookup(host: "a.test", port: 443, within: budget) { () throws(CurlError) -> NameLookup in
                calls.increment()
                return Self.lookup(ttl: 60)
            }
            Issue.record("the waiting probe got an answer while the leader still resolved")
        } catch {
            #expect(error == .operationTimedOut)
            #expect(error.message.hasPrefix("Operation timed out after ") && error.message.hasSuffix(" milliseconds while resolving a.test"),
                    "\(error.message)")
        }
        #expect(calls.count == 1, "the waiting probe did not ask HTTPDNS itself")
        release.signal()
        done.wait()
        let held = try answers.lookup(host: "a.test", port: 443, within: Self.ample) { () throws(CurlError) -> NameLookup in
            calls.increment()
            return Self.lookup(ttl: 60)
        }
        guard case .hit = held.resolution.cache else { Issue.record("not a hit: \(held.resolution.cache)"); return }
        #expect(calls.count == 1)
    }
}
