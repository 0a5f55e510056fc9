#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import IPCurlCore
import Testing

@Suite struct ProgressMeterTests {
    private let ms: UInt64 = 1_000_000

    /// Runs `body` with a meter writing into a pipe and returns everything it wrote.
    private func output(width: Int = 80, colour: Bool = false, _ body: (ProgressMeter, ManualClock) -> Void) -> String {
        let clock = ManualClock()
        return captured { body(ProgressMeter(writer: $0, colour: colour, width: width, now: { clock.now }), clock) }
    }

    @Test func unitsHaveOneDecimalAboveBytes() {
        let shown = [0, 1023, 1024, 1536, 1_048_575, 5 * 1_073_741_824, Int64.max].map(ProgressMeter.bytes)
        #expect(shown == ["0 B", "1023 B", "1.0 KiB", "1.5 KiB", "1.0 MiB", "5.0 GiB", "8.0 EiB"])
    }

    @Test func knownTotalShowsPercentBarSizesRateAndETA() {
        let line = ProgressMeter.render(done: 512 * 1024, total: 1024 * 1024, rate: 1024, width: 80, colour: false)
        let stats = "] 512.0 KiB / 1.0 MiB  1.0 KiB/s  ETA 8:32"
        #expect(line.hasPrefix(" 50.0% ["))
        #expect(line.hasSuffix(stats))
        #expect(line.count == 79)
        let barWidth = 79 - 8 - stats.count
        #expect(line.filter { $0 == "#" }.count == barWidth / 2)
    }

    @Test func unknownOrZeroTotalShowsOnlyBytesAndRate() {
        #expect(ProgressMeter.render(done: 1536, total: -1, rate: 2048, width: 80, colour: false) == "1.5 KiB  2.0 KiB/s")
        #expect(ProgressMeter.render(done: 0, total: 0, rate: nil, width: 80, colour: false) == "0 B  -- B/s")
    }

    @Test func hugeValuesStayFormatted() {
        let full = ProgressMeter.render(done: .max, total: .max, rate: 1e30, width: 80, colour: false)
        #expect(full.hasPrefix("100.0% [###"))
        #expect(full.hasSuffix("] 8.0 EiB / 8.0 EiB  8.0 EiB/s  ETA 0:00"))
        let crawling = ProgressMeter.render(done: 0, total: .max, rate: 1, width: 80, colour: false)
        #expect(crawling.hasPrefix("  0.0% [    "))
        #expect(crawling.hasSuffix("ETA --:--"))
    }

    @Test func etaFormats() {
        #expect(ProgressMeter.eta(remaining: 59, rate: 1) == "0:59")
        #expect(ProgressMeter.eta(remaining: 3599, rate: 1) == "59:59")
        #expect(ProgressMeter.eta(remaining: 3661, rate: 1) == "1:01:01")
        #expect(ProgressMeter.eta(remaining: 10, rate: 4) == "0:03", "rounded up")
        #expect(ProgressMeter.eta(remaining: 0, rate: nil) == "0:00")
        #expect(ProgressMeter.eta(remaining: 10, rate: nil) == "--:--")
        #expect(ProgressMeter.eta(remaining: 10, rate: 0) == "--:--")
        #expect(ProgressMeter.eta(remaining: 360_000, rate: 1) == "--:--")
    }

    @Test func colourOnlyWrapsTheBarAndTakesNoColumns() {
        let plain = ProgressMeter.render(done: 30, total: 100, rate: 10, width: 60, colour: false)
        let green = ProgressMeter.render(done: 30, total: 100, rate: 10, width: 60, colour: true)
        #expect(!plain.contains("\u{1B}"))
        #expect(green.contains("[\u{1B}[32m#"))
        #expect(green.contains("#\u{1B}[0m "))
        #expect(ProgressMeter.visibleWidth(green) == plain.count)
        #expect(!ProgressMeter.render(done: 0, total: 100, rate: 10, width: 60, colour: true).contains("\u{1B}"))
    }

    @Test func noColorAndDumbTerminalDisableColour() {
        #expect(ProgressMeter.colourAllowed { ["TERM": "xterm-256color"][$0] })
        #expect(ProgressMeter.colourAllowed { ["NO_COLOR": "", "TERM": "xterm"][$0] }, "empty NO_COLOR is unset")
        #expect(!ProgressMeter.colourAllowed { ["NO_COLOR": "1", "TERM": "xterm"][$0] })
        #expect(!ProgressMeter.colourAllowed { ["TERM": "dumb"][$0] })
    }

    @Test func linesFitTheWidth() {
        for width in [200, 80, 50, 40, 20, 10, 1] {
            let line = ProgressMeter.render(done: 123_456_789, total: 987_654_321, rate: 1e6, width: width, colour: true)
            #expect(ProgressMeter.visibleWidth(line) <= max(width - 1, 1), "width \(width)")
        }
        #expect(ProgressMeter.render(done: 5, total: 10, rate: 1, width: 200, colour: false).count == 199)
        let narrow = ProgressMeter.render(done: 5, total: 10, rate: 1, width: 30, colour: false)
        #expect(narrow == " 50.0% 5 B / 10 B  1 B/s", "whole fields are dropped, not cut")
        #expect(ProgressMeter.render(done: 5, total: -1, rate: 1, width: 6, colour: false) == "5 B")
    }

    @Test func showsOnlyForFilesOnATerminalWithoutSilent() {
        #expect(ProgressMeter.shouldShow(silent: false, outputIsFile: true, standardErrorIsTTY: true))
        #expect(!ProgressMeter.shouldShow(silent: true, outputIsFile: true, standardErrorIsTTY: true))
        #expect(!ProgressMeter.shouldShow(silent: false, outputIsFile: false, standardErrorIsTTY: true))
        #expect(!ProgressMeter.shouldShow(silent: false, outputIsFile: true, standardErrorIsTTY: false))
    }

    @Test func redrawsAtMostFiveTimesASecondAndFinishEndsTheLine() {
        let text = output { meter, clock in
            meter.update(downloadTotal: 1000, downloaded: 0, uploadTotal: 0, uploaded: 0)  // first call draws
            for step in 1...9 {
                clock.now = UInt64(step) * 50 * ms
                meter.update(downloadTotal: 1000, downloaded: Int64(step * 100), uploadTotal: 0, uploaded: 0)
            }
            clock.now = 460 * ms
            meter.finish()
            meter.finish()
        }
        #expect(text.filter { $0 == "\r" }.count == 4, "0, 200 and 400 ms, then the final draw")
        #expect(text.hasSuffix("] 900 B / 1000 B  1.9 KiB/s  ETA 0:01\n"))
        #expect(text.filter { $0 == "\n" }.count == 1)
    }

    @Test func nothingReportedDrawsNothing() {
        #expect(output { meter, _ in meter.finish() } == "")
    }

    @Test func resetStartsOverAndPadsAwayTheLongerLine() {
        let text = output(width: 40) { meter, clock in
            meter.update(downloadTotal: -1, downloaded: 0, uploadTotal: 0, uploaded: 0)
            clock.now = 1000 * ms
            meter.update(downloadTotal: -1, downloaded: 3 << 30, uploadTotal: 0, uploaded: 0)
            meter.reset()
            clock.now = 1200 * ms
            meter.update(downloadTotal: -1, downloaded: 7, uploadTotal: 0, uploaded: 0)
        }
        let lines = text.split(separator: "\r", omittingEmptySubsequences: true)
        #expect(lines.count == 3)
        #expect(lines[1] == "3.0 GiB  3.0 GiB/s")
        #expect(lines[2] == "7 B  -- B/s       ", "rate restarts; spaces cover the old tail")
    }

    @Test func uploadShowsUntilItCompletesThenTheDownload() {
        let text = output { meter, clock in
            meter.update(downloadTotal: 0, downloaded: 0, uploadTotal: 100, uploaded: 40)
            clock.now = 300 * ms
            meter.update(downloadTotal: 2048, downloaded: 1024, uploadTotal: 100, uploaded: 100)
        }
        let lines = text.split(separator: "\r")
        #expect(lines.first?.hasSuffix("] 40 B / 100 B  -- B/s  ETA --:--") == true)
        #expect(lines.last?.hasSuffix("] 1.0 KiB / 2.0 KiB  -- B/s  ETA --:--") == true, "other side: rate restarts")
    }
}
