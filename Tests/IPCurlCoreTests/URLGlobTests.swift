import CurlKit
import IPCurlCore
import Testing

@Suite struct URLGlobTests {
    private func urls(_ pattern: String) throws -> [String] {
        let glob = try URLGlob(pattern)
        return (0..<glob.count).map { glob.url($0).url }
    }

    @Test func setsAndRangesExpandWithTheLastPatternFastest() throws {
        #expect(try urls("https://h/{a,b}/[1-2]") == ["https://h/a/1", "https://h/a/2", "https://h/b/1", "https://h/b/2"])
        #expect(try urls("https://h/[01-10:4]") == ["https://h/01", "https://h/05", "https://h/09"])
        #expect(try urls("https://h/[x-z]") == ["https://h/x", "https://h/y", "https://h/z"])
        #expect(try urls("https://h/{one}") == ["https://h/one"])
        #expect(try urls("https://h/{a,}") == ["https://h/a", "https://h/"])
    }

    @Test func escapesAndIPv6LiteralsAreNotPatterns() throws {
        #expect(try urls("https://h/\\[x\\]\\{y\\}") == ["https://h/[x]{y}"])
        #expect(try urls("https://[::1]:8443/{a,b}") == ["https://[::1]:8443/a", "https://[::1]:8443/b"])
        #expect(try urls("https://[fe80::1%25eth0]/") == ["https://[fe80::1%25eth0]/"])
    }

    @Test(arguments: ["https://h/[1-", "https://h/{a,b", "https://h/{}", "https://h/[3-1]", "https://h/[1-3:0]",
                      "https://h/[a-Z]", "https://h/x]", "https://h/{a,{b}}", "https://h/[1-4294967296][1-4294967296]"])
    func malformedPatternsAreExit3(pattern: String) {
        #expect(throws: CurlError.malformedURL) { try URLGlob(pattern) }
    }

    /// curl 7.88.1's words and positions (1-based, counted as curl counts them: a set's closing brace and an IPv6
    /// literal's or `[]`'s bytes add nothing), each checked against `curl -sS URL`.
    @Test(arguments: [
        ("http://h/[3-1]", "bad range in URL position 15"), ("http://h/[1-", "bad range in URL position 13"),
        ("http://h/[a-Z]", "bad range in URL position 15"), ("http://h/[1-3:0]", "bad range in URL position 17"),
        ("http://h/[1-3:]", "bad range in URL position 16"), ("http://h/[1-3:2x]", "bad range in URL position 15"),
        ("http://h/[1-3x]", "bad range in URL position 13"), ("http://h/[a-z:30]", "bad range in URL position 18"),
        ("http://h/[a-c:1x]", "bad range in URL position 11"), ("http://h/[1-3:-1]", "bad range in URL position 18"),
        ("http://h/[1-18446744073709551616]", "bad range in URL position 13"),
        ("http://h/[18446744073709551616-1]", "bad range in URL position 11"),
        ("http://h/[-1]", "bad range specification in URL position 11"),
        ("http://h/[1-4294967296][1-4294967296]", "range overflow in URL position 38"),
        ("http://h/{a,b}[1-4294967296][1-4294967296]", "range overflow in URL position 42"),
        ("http://h/[1-4294967296][1-4294967295]{a,b}", "range overflow"),
        ("http://h/{a,b", "unmatched brace in URL position 10"), ("http://h/{a,{b}}", "nested brace in URL position 13"),
        ("http://h/{a,b]", "unexpected close bracket in URL position 14"), ("http://h/{}", "empty string within braces in URL position 11"),
        ("http://h/x]", "unmatched close brace/bracket in URL position 11"),
        ("http://h/[::1]/[3-1]", "bad range in URL position 16"), ("http://h/[]/[3-1]", "bad range in URL position 16"),
        ("http://h/\\[x/[3-1]", "bad range in URL position 19"), ("http://h/{a\\}b,c}[3-1]", "bad range in URL position 22"),
        ("http://h/" + String(repeating: "[1-1]", count: 99), "too many globs in URL position 505"),
    ])
    func refusalsAreCurlsWordsAtCurlsPositions(pattern: String, message: String) {
        do {
            _ = try URLGlob(pattern)
            Issue.record("accepted \(pattern)")
        } catch {
            #expect(error == .malformedURL && error.message == "\(message): \(pattern)")
        }
    }

    /// No cap on a pattern's URLs: curl's limits alone, a count that overflows 64 bits and numbers beyond them.
    @Test func patternsOfAnySizeCurlTakesAreTaken() throws {
        let huge = try URLGlob("https://h/[1-4294967296][1-4294967295]")
        #expect(huge.count == UInt64(4_294_967_296) * 4_294_967_295)
        #expect(huge.url(0).url == "https://h/11" && huge.url(1).url == "https://h/12")
        #expect(huge.url(huge.count - 1).url == "https://h/42949672964294967295")
        let beyondInt = try URLGlob("https://h/[9223372036854775807-9223372036854775808]")
        #expect(beyondInt.count == 2 && beyondInt.url(1).url == "https://h/9223372036854775808")
        #expect(try urls("https://h/[1- 3:+2]") == ["https://h/1", "https://h/3"], "blanks and a sign, as strtoul reads them")
        #expect(try urls("https://h/[Z-a:3]") == ["https://h/Z", "https://h/]", "https://h/`"], "any letters 25 apart")
        #expect(try urls("https://h/[]/{a\\,b,c\\}}") == ["https://h/[]/a,b", "https://h/[]/c}"], "[] is text; a set escapes anything")
        #expect(try urls("https://h/" + String(repeating: "{a}", count: 98)) == ["https://h/" + String(repeating: "a", count: 98)])
    }

    @Test func rangesMakeEachValueWhenAsked() throws {
        let glob = try URLGlob("https://h/[1-10000]/[0098-0102:2]/[a-z:12]")
        #expect(glob.count == 10_000 * 3 * 3)
        #expect(glob.url(0).url == "https://h/1/0098/a")
        #expect(glob.url(1).url == "https://h/1/0098/m" && glob.url(2).url == "https://h/1/0098/y")
        #expect(glob.url(5).url == "https://h/1/0100/y")
        let last = glob.url(glob.count - 1)
        #expect(last.url == "https://h/10000/0102/y" && last.values == ["10000", "0102", "y"])
    }

    @Test func aPlanCountsItsTransfersAndMakesThemInOrderWhenAsked() throws {
        let job = FetchJob(operations: [FetchJob.Operation(diagnostics: Diagnostics(program: "test"), session: .failure(.usage("")))])
        let slots = (1...20).map { URLSlot(url: "https://h/\($0)/[1-100000]", output: "o#1", remoteName: false, operation: 0, globoff: false) }
        let plan = try job.plan(slots).get()
        #expect(plan.count == 2_000_000)
        var transfers = plan.makeIterator()
        let first = transfers.next()
        #expect(first?.url == "https://h/1/1" && first?.output == "o1" && first?.urlNumber == 0)
        #expect(transfers.next()?.url == "https://h/1/2")
        let bad = URLSlot(url: "https://h/[1-", output: nil, remoteName: false, operation: 0, globoff: false)
        #expect(throws: CurlError.malformedURL) { try job.plan(slots + [bad]).get() }
    }

    @Test func outputNamesTakeTheValuesOfTheirPatterns() throws {
        let glob = try URLGlob("https://h/{a,b}/[1-2]")
        let (_, values) = glob.url(3)
        #expect(values == ["b", "2"])
        #expect(URLGlob.substitute(into: "out_#1_#2.txt", values: values) == "out_b_2.txt")
        #expect(URLGlob.substitute(into: "#3#x#", values: values) == "#3#x#")  // beyond the patterns: as written
    }

    @Test func serialBatchesExitWithTheLastCodeAndFailEarlyStops() {
        let codes: [Int32?] = [7, nil, 22, nil]
        #expect(FetchBatch.run(count: 4, parallel: nil, failEarly: false) { codes[$0] } == nil)
        #expect(FetchBatch.run(count: 3, parallel: nil, failEarly: false) { codes[$0] } == 22)
        #expect(FetchBatch.run(count: 4, parallel: nil, failEarly: true) { codes[$0] } == 7)
    }

    @Test func parallelBatchesExitWithTheFirstFailureInOrder() {
        let codes: [Int32?] = [nil, nil, 28, 7, nil]
        #expect(FetchBatch.run(count: 5, parallel: 3, failEarly: false) { codes[$0] } == 28)
        #expect(FetchBatch.run(count: 2, parallel: 3, failEarly: false) { codes[$0] } == nil)
    }
}
