/// The report of a redirect chain gathered hop by hop, in the same memory for two hops as for two million: the
/// sums curl reports for a chain, the first hop's URL and the last hop's report (``TransferReport/chain(_:)`` says
/// which value comes from where).
struct RedirectChain {
    /// The hops so far.
    private(set) var count = 0
    private var last: TransferReport?
    private var firstURL = "", firstURLNumber = 0
    /// Every hop's phase times added up, and the total time of the hops before the last.
    private var times = PhaseTimes(), totalBeforeLast: Int64 = 0
    private var sizeHeader: Int64 = 0, sizeRequest: Int64 = 0
    private var redirects = 0, connects = 0
    /// The latest hop's certificate chain, for a last hop on a connection an earlier hop opened.
    private var certificates: [[String]] = []

    /// Adds the next hop.
    mutating func append(_ hop: TransferReport) {
        if let last {
            totalBeforeLast += last.times.total
            times = times.adding(hop.times)
        } else {
            (firstURL, firstURLNumber, times) = (hop.url, hop.urlNumber, hop.times)
        }
        sizeHeader += hop.counts.sizeHeader
        sizeRequest += hop.counts.sizeRequest
        redirects += hop.numRedirects
        connects += hop.numConnects
        if !hop.certificates.isEmpty { certificates = hop.certificates }
        last = hop
        count += 1
    }

    /// The chain's report: a single hop as it is, an empty chain an empty report.
    var report: TransferReport {
        guard var report = last else { return TransferReport(url: "") }
        guard count > 1 else { return report }
        let redirect = report.times.redirect
        report.times = times
        report.times.redirect = redirect + totalBeforeLast
        report.counts.sizeHeader = sizeHeader
        report.counts.sizeRequest = sizeRequest
        let total = report.times.total
        func speed(_ bytes: Int64) -> Int64 { total < 1 ? bytes * 1_000_000 : bytes * 1_000_000 / total }
        report.counts.speedDownload = speed(report.counts.sizeDownload)
        report.counts.speedUpload = speed(report.counts.sizeUpload)
        report.numRedirects = count - 1 + redirects
        report.numConnects = connects
        report.url = firstURL
        report.urlNumber = firstURLNumber
        // A hop on a connection an earlier hop opened had no handshake of its own: curl, with one easy handle
        // for the chain, still reports the chain of the handshake before.
        if report.certificates.isEmpty { report.certificates = certificates }
        return report
    }
}
