import IPCurlCore
import Testing

@Suite struct ResponseHeadersTests {
    private func headers(_ lines: [String]) -> ResponseHeaders {
        var headers = ResponseHeaders()
        for line in lines { headers.receive(line) }
        return headers
    }

    @Test func interimResponseHeadersDoNotSurvive() {
        let received = headers(["HTTP/1.1 100 Continue\r\n", "X-Info: early\r\n", "X-Both: one\r\n", "\r\n",
                                "HTTP/1.1 200 OK\r\n", "X-Both:   two \r\n", "Content-Length: 2\r\n", "\r\n"])
        #expect(received.fields == [HeaderField(name: "X-Both", value: "two"), HeaderField(name: "Content-Length", value: "2")])
        #expect(received.first(named: "x-info") == nil)
    }

    @Test func firstValueCaseInsensitiveAndRawBytes() {
        var received = ResponseHeaders()
        for line in ["HTTP/2 200 \r\n", "X-Dup: first\r\n", "x-dup: second\r\n", "\r\n"] {
            Array(line.utf8).withUnsafeBytes { received.receive($0) }
        }
        #expect(received.first(named: "X-DUP") == "first")
        #expect(received.first(named: "x-du") == nil)
        #expect(received.fields.count == 2)
    }

    @Test func foldedLinesJoinAndTrailersAreNotHeaders() {
        let received = headers(["HTTP/1.1 200 OK\r\n", "X-Long: a\r\n", "\t b\r\n", "\r\n", "X-Trailer: t\r\n", "\r\n"])
        #expect(received.fields == [HeaderField(name: "X-Long", value: "a b")])
    }

    @Test func aNewStatusLineStartsOver() {
        let received = headers(["HTTP/1.1 302 Found\r\n", "Location: /x\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "A: 1\r\n"])
        #expect(received.fields == [HeaderField(name: "A", value: "1")])
    }
}

@Suite struct RedirectChainTests {
    private func hop(_ url: String, total: Int64, phases: Int64, header: Int64, download: Int64, code: Int) -> TransferReport {
        var report = TransferReport(url: url)
        (report.times.nameLookup, report.times.connect, report.times.appConnect) = (phases, phases, phases)
        (report.times.preTransfer, report.times.startTransfer) = (phases, phases)
        report.times.total = total
        report.times.dns = 10
        report.counts.sizeHeader = header
        report.counts.sizeRequest = header / 2
        report.counts.sizeDownload = download
        report.counts.speedDownload = 999
        report.numConnects = 1
        report.responseCode = code
        report.method = code == 200 ? "GET" : "POST"
        report.remotePort = code
        report.dnsSource = "hop\(code)"
        report.responseHeaders.receive("HTTP/1.1 \(code) X\r\n")
        report.responseHeaders.receive("Hop: \(code)\r\n")
        return report
    }

    @Test func sumsPhasesAndTotalsKeepsTheLastResponse() {
        let chained = TransferReport.chain([hop("http://a/r", total: 100_000, phases: 5, header: 134, download: 100, code: 302),
                                            hop("http://a/s", total: 300_000, phases: 7, header: 138, download: 0, code: 301),
                                            hop("http://a/final", total: 400_000, phases: 11, header: 150, download: 12, code: 200)])
        #expect(chained.times.connect == 23)
        #expect(chained.times.startTransfer == 23)
        #expect(chained.times.total == 800_000)
        #expect(chained.times.redirect == 400_000)
        #expect(chained.times.dns == 30)
        #expect(chained.counts.sizeHeader == 422)
        #expect(chained.counts.sizeRequest == 211)
        #expect(chained.counts.sizeDownload == 12)
        #expect(chained.counts.speedDownload == 15)
        #expect(chained.numRedirects == 2)
        #expect(chained.numConnects == 3)
        #expect(chained.url == "http://a/r")
        #expect(chained.effectiveURL == "http://a/final")
        #expect(chained.responseCode == 200 && chained.method == "GET" && chained.remotePort == 200)
        #expect(chained.dnsSource == "hop200")
        #expect(chained.responseHeaders.fields == [HeaderField(name: "Hop", value: "200")])
    }

    @Test func singleHopIsUnchangedAndEmptyIsEmpty() {
        let single = hop("http://a/", total: 5, phases: 1, header: 1, download: 1, code: 200)
        #expect(TransferReport.chain([single]).counts.speedDownload == 999)
        #expect(TransferReport.chain([]).responseCode == 0)
    }
}
