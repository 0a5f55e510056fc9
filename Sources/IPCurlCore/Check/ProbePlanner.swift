import CurlKit
import HTTPDNS

/// One probe before it runs: its result so far (target, address, answer source, lookup time, or the error that
/// stops it before any transfer) and the address it pins.
struct PlannedProbe {
    var result: ProbeResult
    /// The URL as libcurl parsed it; `nil` when the probe already failed.
    var url: CurlURL?
    /// The addresses the probe's entry pins: one with ``CheckTarget/allIPs``, else the whole answer.
    var pinned: [IPAddress] = []
    /// Whether the transfer runs (the URL parsed and the name resolved).
    var runs: Bool { result.error == nil }
}

/// Turns targets into probes in two steps around the name lookups: ``parse(_:)`` reads each target's URL once
/// (the URLs that will be probed are the ones ``NameTable`` resolves), then ``probes(for:names:)`` makes one probe
/// per target, or one per address of the name's answer with `allIPs`.
enum ProbePlanner {
    /// `target` as a probe with its URL parsed, or already failed (a URL libcurl rejects, a scheme other than
    /// http or https); user info never stays in what reports show.
    static func parse(_ target: CheckTarget) -> PlannedProbe {
        var probe = PlannedProbe(result: ProbeResult(target: target, address: nil))
        let url: CurlURL
        do throws(CurlError) { url = try CurlURL(target.url, guessScheme: false) } catch {
            probe.result.target.show(url: CurlURL.withoutUserInfo(target.url))
            probe.result.error = ProbeError(error)
            return probe
        }
        if url.hasCredentials { probe.result.target.show(url: url.referer) }
        guard url.scheme == "https" || url.scheme == "http" else {
            probe.result.error = ProbeError(exitCode: CurlError.unsupportedProtocol.exitCode,
                                            message: "Protocol \"\(url.scheme)\" not supported by ipcurl")
            return probe
        }
        do throws(CurlError) { try url.requireConnectablePort() } catch {
            probe.result.error = ProbeError(error)
            return probe
        }
        probe.url = url
        return probe
    }

    /// The probes of one parsed target, with its name's lookup from `names`.
    static func probes(for parsed: PlannedProbe, names: NameTable) -> [PlannedProbe] {
        var probe = parsed
        let target = probe.result.target
        guard let url = probe.url else { return [probe] }
        if let literal = IPAddress(url.host) {
            probe.result.address = literal
            probe.pinned = [literal]
            return [probe]
        }
        guard let lookup = names.lookup(url.host, url.port) else {
            probe.result.error = ProbeError(exitCode: CurlError.couldntResolveHost.exitCode,
                                            message: "Could not resolve host: \(url.host)")
            return [probe]
        }
        probe.result.timings.resolve = lookup.microseconds
        probe.result.timings.resolveNames = lookup.names
        let resolution: Resolution
        switch lookup.result {
        case .success(let value): resolution = value
        case .failure(let error):
            probe.result.error = ProbeError(error)
            return [probe]
        }
        probe.result.answerSource = resolution.sourceName
        let addresses = resolution.entry?.addresses ?? []
        guard target.allIPs, addresses.count > 1 else {
            probe.result.address = addresses.first
            probe.pinned = addresses
            return [probe]
        }
        return addresses.map { address in
            var one = probe
            one.result.address = address
            one.pinned = [address]
            return one
        }
    }
}

extension CheckTarget {
    /// Reports `shown` as the URL (and as the name when the name is the URL): reports are read by others, so user
    /// info never reaches them.
    mutating func show(url shown: String) {
        if name == url { name = shown }
        url = shown
    }
}

extension ProbeError {
    /// curl's exit code and message of `error`.
    init(_ error: CurlError) { self.init(exitCode: error.exitCode, message: error.message) }
}
