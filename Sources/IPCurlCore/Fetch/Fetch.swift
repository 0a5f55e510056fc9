#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit
import HTTPDNS

/// The result of one fetch: the error (if any) and the values `-w` prints.
public struct FetchOutcome: Sendable {
    /// `nil` on success.
    public let error: CurlError?
    /// The transfer's getinfo values (summed over redirect hops as curl sums them) when the request has `-w`,
    /// its exit code and message.
    public let report: TransferReport
}

/// Runs one request IP-direct: resolve the URL's host through the resolution policy, pin the answer with
/// `CURLOPT_RESOLVE`, and let libcurl connect to that IP while SNI, `Host:` and certificate verification all
/// use the URL's own host name. Redirects are followed here, one easy handle per hop, so every hop's host is
/// resolved the same way (``RedirectRules``); transient failures are retried (``RetryRules``); a TLS failure
/// at one IP repeats the hop on the next IP (``AddressFailover``).
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_URL`, `CURLOPT_FOLLOWLOCATION`, curl's `--retry`.
public enum Fetch {
    /// Performs `request`, streaming the body to its output; never throws, the outcome carries the error.
    /// `session` is shared with the run's other transfers of the same options, so each name is asked once; its
    /// diagnostics tell what is decided and warned. `share` holds the cookies, TLS sessions and connections of
    /// the command line's transfers. The error itself is the caller's to report.
    public static func run(_ request: FetchRequest, session: ResolverSession, share: CommandShare) -> FetchOutcome {
        let run = FetchRun(request: request, session: session, share: share)
        let failure = run.perform()
        // Before any hop, %{url_effective} is the URL as libcurl would have requested it (with --proto-default's scheme).
        var report = run.chain.count == 0 || request.writeOut == nil ? TransferReport(url: request.protocols.absolute(request.url))
            : run.chain.report
        report.exitCode = failure?.exitCode ?? 0
        report.errorMessage = failure?.message ?? ""
        report.dnsSource = run.viaProxy ? "proxy" : run.lastResolution?.sourceName ?? ""
        report.times.dns = run.dnsMicroseconds
        report.url = request.url
        report.filenameEffective = run.output.name
        if run.chain.count == 0 { report.method = request.template.customMethod ?? request.firstMethod }
        // curl has started the next request when it finds the limit reached, so %header{} sees no headers.
        if failure == .tooManyRedirects { report.headersReadable = false }
        // curl has followed a redirect to a URL it then refuses: counted, and the URL it refused is the effective one.
        if let refused = run.refusedRedirect {
            report.numRedirects += 1
            report.effectiveURL = refused
            report.redirectURL = ""
        }
        // curl counts a redirect to a URL it cannot parse too, and keeps the last URL as the effective one.
        if run.unparsedRedirect {
            report.numRedirects += 1
            report.redirectURL = ""
        }
        // libcurl counts the header line it stops at; the handle whose callback refused that line does not.
        if run.headerFailure != nil { report.counts.sizeHeader = Int64(run.headerBytes) }
        return FetchOutcome(error: failure, report: report)
    }
}

/// The state of one ``Fetch``: clocks, the policy, outputs, and the hop reports of the current attempt.
final class FetchRun {
    let request: FetchRequest
    /// The run's resolution, shared with its other transfers of the same options.
    let session: ResolverSession
    /// Where `-v` and warnings go: the session's.
    var diagnostics: Diagnostics { session.diagnostics }
    let clock = ContinuousClock()
    var attemptStart: ContinuousClock.Instant
    let output: OutputFile
    let headerDump: OutputFile?
    let meter: ProgressMeter?
    /// The one reader of a streamed upload (`-T -`, `-T .`, a pipe), shared by every hop and attempt so a replay
    /// starts over; `nil` when the payload streams nothing.
    let stream: StreamReplay?
    /// The command line's cookies, TLS sessions and connection pool.
    let share: CommandShare
    var lastResolution: Resolution?
    /// Whether the last hop went through a proxy, which resolves the name itself.
    var viaProxy = false
    /// Whether the last hop went through a proxy of any kind (a SOCKS proxy keeps the pin): a failed connection
    /// is then the proxy's (``AddressFailover/failedAddresses(after:at:requestBytesSent:pinned:throughProxy:)``).
    var throughProxy = false
    var dnsMicroseconds: Int64 = 0
    /// The host and port the last hop's resolution is for (the `--connect-to` or alt-svc target, or the URL's),
    /// and the pins beside it (``resolve(_:)``).
    var pinnedPlace: (host: String, port: Int)?, extraPins: [ResolveEntry] = []
    /// The hops of the current attempt, summed as they end: memory stays flat however many hops a chain has.
    var chain = RedirectChain()
    /// The response header bytes of the current attempt's hops, against ``RedirectRules/maxChainHeaderBytes``,
    /// and the error once they pass it.
    var headerBytes = 0, headerFailure: CurlError?
    /// The last hop's handle, for the retry decision.
    var lastHandle: EasyHandle?
    /// `--etag-save`'s file, open from the start as curl's.
    var etags: ETagFile?
    /// `-C -`: the output file's size when the transfer began (curl opens a file it resumes past 0 before the transfer).
    let resumeSizeAtStart: Int64
    /// The redirect URL refused for its scheme (ipcurl's own rule, `--proto`, `--proto-redir`) or its user name
    /// (`--disallow-username-in-url`), ending the chain.
    var refusedRedirect: String?
    /// Whether the chain ended on a `Location` libcurl cannot parse: the hop counts, the URL stays the last one.
    var unparsedRedirect = false

    init(request: FetchRequest, session: ResolverSession, share: CommandShare) {
        self.request = request
        self.session = session
        self.share = share
        attemptStart = clock.now
        stream = request.payload.replay()
        output = OutputFile(path: request.outputPath, createDirectories: request.createDirectories,
                            appends: request.resume != nil && request.outputPath.map { $0 != "-" } == true)
        output.keepsExisting = !request.replacesFiles
        resumeSizeAtStart = request.resume == .automatic ? request.outputPath.map(OutputFile.currentSize(of:)) ?? 0 : 0
        headerDump = request.headerDumpPath.map { OutputFile(path: $0, createDirectories: request.createDirectories) }
        meter = request.showsProgress ? ProgressMeter(colour: session.diagnostics.colour) : nil
        if request.outputPath != nil || request.headerDumpPath != nil { SignalCleanup.install() }
        if diagnostics.verbose {
            for file in [output, headerDump].compactMap({ $0 }) { file.note = { [diagnostics] in diagnostics.trace("* \($0)\n") } }
        }
    }

    var elapsedMS: Int { (clock.now - attemptStart).wholeMilliseconds }

    /// Every attempt (`--retry`), each following the redirect chain; then the output is committed or dropped.
    func perform() -> CurlError? {
        if let path = request.etagSavePath {
            guard let saved = ETagFile(path: path) else {
                diagnostics.warning("Failed creating file for saving etags: \"\(Printable.escaped(path))\". Skip this transfer")
                return CurlError.readError.with(message: "no transfer performed")
            }
            etags = saved
        }
        session.announce()
        defer { session.finish() }
        let firstStart = clock.now
        var retriesLeft = request.retry.count
        var backoff = RetryRules.firstBackoffMS
        while true {
            attemptStart = clock.now
            dnsMicroseconds = 0  // like the other -w times, %{dns_time} is the last attempt's
            chain = RedirectChain()
            (headerBytes, headerFailure) = (0, nil)
            (lastHandle, refusedRedirect, unparsedRedirect) = (nil, nil, false)
            var failure: CurlError?
            do throws(CurlError) { try followChain() } catch { failure = error }
            let attempt = RetryRules.Attempt(
                error: failure, status: lastHandle?.responseCode ?? 0, osErrno: lastHandle?.osErrno ?? 0,
                retryAfterSeconds: lastHandle?.retryAfterSeconds ?? 0)
            if let reason = request.retry.reason(for: attempt),
               let wait = request.retry.wait(for: attempt, reason: reason, retriesLeft: retriesLeft, backoffMS: backoff,
                                             elapsedMS: (clock.now - firstStart).wholeMilliseconds) {
                let left = retriesLeft == 1 ? "1 retry left" : "\(retriesLeft) retries left"
                diagnostics.warning("Problem \(reason.rawValue). Will retry in \(wait / 1000) seconds. \(left).")
                output.discard()
                headerDump?.discard()
                meter?.reset()
                Self.sleep(milliseconds: wait)
                retriesLeft -= 1
                backoff = request.retry.nextBackoff(after: backoff)
                continue
            }
            return finish(failure)
        }
    }

    /// Commits `-o` on success (and for `--fail-with-body`, unless `--remove-on-error`), drops it otherwise; `-D` is
    /// always kept.
    private func finish(_ failure: CurlError?) -> CurlError? {
        meter?.finish()
        var result = failure
        // -D first: when -D and -o name one file, the body replaces the headers there, as with curl 7.88.
        if let headerDump {
            do throws(CurlError) { try headerDump.commit() } catch { result = result ?? error }
        }
        let keepsErrorBody = request.template.fail == .failWithBody && failure == CurlError.httpReturnedError && !request.removesOnError
        if failure == nil || keepsErrorBody {
            do throws(CurlError) { try output.commit() } catch { result = result ?? error }
        } else {
            output.discard()
            if request.removesOnError { removeOutput() }
        }
        if result == nil, let handle = lastHandle, !output.name.isEmpty {
            if request.remoteTime { FileStamps.setModificationTime(handle.fileTime, of: output.name, diagnostics) }
            if request.extendedAttributes { FileStamps.setAttributes(of: output.name, from: handle, url: request.url, diagnostics) }
        }
        return result
    }

    /// `--remove-on-error`: the file the failed transfer wrote in place goes, as curl's does, with curl 7.88's note
    /// under `-v`. Only a regular file: curl 7.88 unlinks whatever the name holds (`/dev/null` too, as root); ipcurl
    /// keeps it and warns in the words of later curls.
    private func removeOutput() {
        let resumed = switch request.resume {
        case .offset(let offset)?: offset > 0
        case .automatic?: resumeSizeAtStart > 0
        case nil: false
        }
        switch output.removeAfterFailure(resumed: resumed) {
        case .removed(let path)?: diagnostics.trace("Note: Removing output file: \(path)\n")
        case .notRegular(let path)?: diagnostics.warning("Skipping removal; not a regular file: \(path)")
        case .failed(let path)?: diagnostics.warning("Failed removing: \(path)")
        case nil: break
        }
    }

    /// One attempt: the first URL, then every redirect `-L` allows, each hop resolved on its own.
    private func followChain() throws(CurlError) {
        var url = try CurlURL(request.protocols.absolute(request.url), pathAsIs: request.template.tuning.pathAsIs)
        let origin = url
        var method = request.firstMethod
        var payload = request.payload
        var referer = request.referer
        try Self.requireHTTP(url.scheme)
        try request.protocols.require(url.scheme, redirect: false)
        try request.template.auth.check(url)
        var named: CurlURL?  // the last URL of the chain that named user info
        while true {
            if url.hasCredentials { named = url }
            let hop = Hop(url: url, method: method, payload: payload, referer: referer,
                          sendsCredentials: request.redirects.sendsCredentials(to: url, origin: origin),
                          userInfo: request.redirects.userInfo(for: url, origin: origin, remembered: named))
            let handle = try perform(hop)
            let status = handle.responseCode
            guard request.redirects.follow, RedirectRules.isFollowed(status: status),
                  let next = handle.redirectURL else {
                if request.template.fail == .failWithBody, status >= 400 {
                    throw CurlError.httpReturnedError.with(message: "The requested URL returned error: \(status)")
                }
                return
            }
            let limit = request.redirects.maxRedirects
            if limit >= 0, chain.count > limit {
                throw CurlError.tooManyRedirects.with(message: "Maximum (\(limit)) redirects followed")
            }
            if request.redirects.switchesToGet(status: status, method: method) {
                diagnostics.trace("* Switch from \(method) to GET\n")
                method = "GET"
                payload = .none
            }
            if request.autoReferer { referer = url.referer }
            let pathAsIs = request.template.tuning.pathAsIs
            // libcurl hands over a Location it could not resolve as it came. One without a scheme (RFC 3986) is
            // resolved here as curl -L resolves it, so one libcurl cannot parse ends as curl's does (exit 3, the hop
            // counted); text before a colon that is no scheme is never taken for one.
            var target = next
            if RedirectRules.scheme(of: next) == nil {
                do throws(CurlError) { target = try CurlURL(redirect: next, from: url, pathAsIs: pathAsIs).text } catch {
                    unparsedRedirect = true
                    throw error
                }
            }
            // Checked before parsing: libcurl's parser rejects some schemes' URLs (file:///x has no host) with exit 3.
            let scheme = RedirectRules.scheme(of: target) ?? ""
            do throws(CurlError) {
                try Self.requireHTTP(scheme)
                try request.protocols.require(scheme, redirect: true)
            } catch {
                refusedRedirect = target
                throw error
            }
            url = try CurlURL(target, pathAsIs: pathAsIs)
            do throws(CurlError) { try request.template.auth.check(url) } catch {
                refusedRedirect = target
                throw error
            }
            diagnostics.trace("* Issue another request to this URL: '\(url.redacted)'\n")
            meter?.reset()
        }
    }

    /// ipcurl speaks http and https only: anything else is curl's exit 1.
    private static func requireHTTP(_ scheme: String) throws(CurlError) {
        guard scheme == "https" || scheme == "http" else {
            throw CurlError.unsupportedProtocol.with(message: "Protocol \"\(scheme)\" not supported by ipcurl")
        }
    }

    /// Sleeps `milliseconds`, whatever signals interrupt it.
    static func sleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

extension CurlURL {
    /// Port 0, which libcurl's parser accepts and no connection reaches, refused as curl ends on it (exit 7, one
    /// line), before any name is looked up for it.
    func requireConnectablePort() throws(CurlError) {
        guard port == 0 else { return }
        throw CurlError.couldntConnect.with(message: "Failed to connect to \(host) port 0: port 0 cannot be connected to")
    }
}
