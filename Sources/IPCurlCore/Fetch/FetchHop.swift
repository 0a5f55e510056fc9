import CurlKit
import HTTPDNS

/// One request of a redirect chain: where it goes and what it carries.
struct Hop {
    var url: CurlURL
    /// The method semantics (GET, HEAD, POST, PUT); `-X` still names the string sent.
    var method: String
    var payload: RequestPayload
    var referer: String?
    /// Whether `-u`, `Authorization:`, `Cookie:` and `-b name=value` go along (first host, or trusted).
    var sendsCredentials: Bool
    /// The URL user info the hop requests with (``RedirectRules/userInfo(for:origin:remembered:)``).
    var userInfo: String?

    /// The URL libcurl requests: ``url`` with ``userInfo`` in place of its own.
    var requestedURL: String { url.text(withUserInfo: userInfo) }
}

extension FetchRun {
    /// Performs one hop, moving to the answer's next IP when TLS fails before anything was sent
    /// (``AddressFailover``); records the hop's report and returns its handle.
    func perform(_ hop: Hop) throws(CurlError) -> EasyHandle {
        // The previous hop's handle goes first: cleaning it up writes the alt-svc and HSTS caches this hop reads.
        lastHandle = nil
        let resolution = try resolve(hop.url)
        var addresses = resolution?.entry?.addresses ?? []
        var failed: [IPAddress] = []  // what every attempt at this hop proved unusable
        var firstTry = true
        while true {
            let entry = resolution?.entry.flatMap { given in
                given.addresses == addresses ? given : ResolveEntry(host: given.host, port: given.port, addresses: addresses)
            }
            // curl loads a transfer's pins once; a redirect hop or a failover here is a handle of its own.
            let handle = try makeHandle(hop, entry: entry, reloadsPins: !firstTry || chain.count > 0)
            firstTry = false
            lastHandle = handle
            var headers = ResponseHeaders()
            let includeHeaders = request.includeHeaders
            // The header fields are read only to follow a redirect (-L), name a file (-J) or report (-w).
            let keepsHeaders = request.redirects.follow || request.remoteHeaderName || request.writeOut != nil
            handle.onHeader = { [unowned self, output, headerDump, etags] bytes in
                headerBytes += bytes.count
                if headerBytes > RedirectRules.maxChainHeaderBytes {
                    headerFailure = RedirectRules.headersTooLarge(headerBytes)
                    return false
                }
                etags?.receive(bytes)
                if keepsHeaders { headers.receive(bytes) }
                if let headerDump, !headerDump.write(bytes) { return false }
                return includeHeaders ? output.write(bytes) : true
            }
            let follow = request.redirects.follow, remoteHeaderName = request.remoteHeaderName
            var skipsBody: Bool?
            handle.onBody = { [unowned handle, output] bytes in
                // The body of a redirect that is followed is not output, as with curl -L. Decided on the first
                // chunk: by then the final response's headers are all in.
                let skips = skipsBody ?? (follow && RedirectRules.isFollowed(status: handle.responseCode)
                    && !(headers.first(named: "location") ?? "").allSatisfy { $0 == " " || $0 == "\t" })
                if skipsBody == nil, !skips, remoteHeaderName,
                   let name = ContentDisposition.filename(headers.first(named: "content-disposition")) {
                    output.retarget(to: ContentDisposition.placed(name, beside: output.name))
                }
                skipsBody = skips
                return skips || output.write(bytes)
            }
            // A new connection joins the pool: its address is recorded (a reused one was recorded when it was new).
            defer { if let entry, handle.connectCount > 0 { share.record(connectedTo: handle.primaryIP, for: entry) } }
            do throws(CurlError) {
                do throws(CurlError) { try share.perform(handle) } catch {
                    throw output.failure ?? headerDump?.failure ?? headerFailure ?? error
                }
                chain.append(report(handle, headers, hop))
                return handle
            } catch {
                let failedIP = handle.primaryIP ?? ""
                let sent = handle.requestSize
                failed += AddressFailover.failedAddresses(after: error, at: failedIP, requestBytesSent: sent,
                                                          pinned: addresses, throughProxy: throughProxy)
                guard let next = AddressFailover.remaining(after: error, at: failedIP, requestBytesSent: sent,
                                                           addresses: addresses) else {
                    chain.append(report(handle, headers, hop))
                    // A --connect-to or alt-svc target's answer is not condemned: TLS verifies the URL's name there.
                    if let resolution, let pinnedPlace, pinnedPlace.host == hop.url.host,
                       AddressFailover.condemns(resolution.entry?.addresses ?? [], failed: failed) {
                        session.distrust(host: pinnedPlace.host, port: pinnedPlace.port, resolution)
                    }
                    throw error
                }
                let line = "\(hop.url.host): TLS failed at \(failedIP) (exit \(error.exitCode): \(error.message)); trying \(next[0])"
                if diagnostics.showsWarnings { diagnostics.warning(line) } else { diagnostics.trace("* HTTPDNS failover: \(line)\n") }
                addresses = next
            }
        }
    }

    /// The hop's report; `%{url_effective}` is the hop's URL as the chain named it (curl's), whatever user info
    /// the hop requested with.
    /// Without `-w` nothing reads the values, so only the URL is kept.
    private func report(_ handle: EasyHandle, _ headers: ResponseHeaders, _ hop: Hop) -> TransferReport {
        guard request.writeOut != nil else { return TransferReport(url: request.url) }
        var report = TransferResult(handle: handle, url: request.url, error: nil, headers: headers,
                                    collectedCertificates: request.collectsCertificates).report
        if hop.requestedURL != hop.url.text { report.effectiveURL = hop.url.text }
        return report
    }

    /// `reloadsPins` for a handle after the transfer's first (a redirect hop, a failover), whose loading of the pins
    /// again libcurl notes in its trace; curl loads them once per transfer, and neither `-v` nor `--trace` shows it.
    private func makeHandle(_ hop: Hop, entry: ResolveEntry?, reloadsPins: Bool) throws(CurlError) -> EasyHandle {
        var spec = transferSpec(hop)
        if let limit = spec.template.transport.timeoutMS {
            guard limit > elapsedMS else {
                throw CurlError.operationTimedOut.with(message: "Operation timed out after \(elapsedMS) milliseconds")
            }
            spec.template.transport.timeoutMS = limit - elapsedMS
        }
        let own = [entry].compactMap { $0 } + extraPins
        let pinned = session.settings.staticEntries.filter { given in !own.contains { $0.host == given.host && $0.port == given.port } }
        spec.resolveEntries = pinned.isEmpty && extraPins.isEmpty ? own : Self.uniqued(pinned + own)
        let handle = try spec.makeHandle(stream: stream)
        diagnostics.trace(DecisionLog.entries(spec.resolveEntries))
        try share.attach(to: handle)
        if let entry, share.needsNewConnection(for: entry) {
            diagnostics.trace("* HTTPDNS \(entry.host): a pooled connection goes to an address outside this pin; opening a new one\n")
            try handle.opensNewConnection()
        }
        if let meter {
            try handle.reportProgress()
            handle.onProgress = { meter.update(downloadTotal: $0, downloaded: $1, uploadTotal: $2, uploaded: $3); return true }
        }
        let redaction = CredentialRedaction.Stream()  // the handle's callbacks, one after another
        if let trace = request.trace {
            // As in curl, --trace and --trace-ascii replace -v's trace (ipcurl's own decisions still print with -v).
            let sink = DescriptorWriter(descriptor: trace.descriptor)
            try handle.traceVerbosely { kind, bytes in
                if reloadsPins, VerboseTrace.isPinReload(kind, bytes) { return }
                sink.write(trace.render(kind, bytes, redaction: redaction))
            }
        } else if diagnostics.verbose {
            try handle.traceVerbosely { [diagnostics] kind, bytes in
                if reloadsPins, VerboseTrace.isPinReload(kind, bytes) { return }
                diagnostics.trace(VerboseTrace.render(kind, bytes, redaction: redaction))
            }
        }
        return handle
    }

    /// The hop as a transfer: method, headers, body, credentials (only where the hop may carry them), trust.
    /// A hop that may not carry credentials requests its URL without user info, so a `Location:` naming
    /// `user:password@` another host sends no `Authorization` either, as in curl.
    private func transferSpec(_ hop: Hop) -> TransferSpec {
        var spec = TransferSpec(url: hop.requestedURL, template: request.template)
        switch request.resume {
        case .offset(let offset): spec.template.tuning.resumeFrom = offset
        case .automatic: spec.template.tuning.resumeFrom = request.outputPath.map(OutputFile.currentSize(of:)) ?? 0
        case nil: break
        }
        if !hop.sendsCredentials {
            spec.template.headers.removeAll(where: Self.isCredentialHeader)
            spec.template.auth.bearerToken = nil
        }
        spec.collectsCertificates = request.collectsCertificates && hop.url.scheme == "https"
        spec.method = hop.method
        spec.forcesGet = hop.method == "GET" && hop.payload == .none && request.payload != .none
        spec.payload = hop.payload
        spec.referer = hop.referer
        if hop.sendsCredentials {
            spec.credentials = request.credentials
            spec.cookies = request.cookies
        }
        return spec
    }

    /// `Authorization:` and `Cookie:` lines (also their `Name;` empty forms), dropped on another host.
    static func isCredentialHeader(_ line: String) -> Bool {
        let name = line.prefix { $0 != ":" && $0 != ";" }.lowercased().trimmingSuffixBlanks()
        return name == "authorization" || name == "cookie" || name == "proxy-authorization"
    }

    /// `entries` without repeats, first occurrence kept, in order. Repeats are found by sorting (a set's hashed
    /// storage costs a start-up a protocol-conformance scan of the runtime), so a config file of 100,000
    /// `--resolve` lines costs n log n, not n².
    private static func uniqued(_ entries: [ResolveEntry]) -> [ResolveEntry] {
        guard entries.count > 1 else { return entries }
        // The text holds the whole entry: equal texts are equal entries. Ties keep command-line order.
        let sorted = entries.indices.sorted { (entries[$0].description, $0) < (entries[$1].description, $1) }
        var repeated = [Bool](repeating: false, count: entries.count)
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where entries[earlier].description == entries[later].description {
            repeated[later] = true
        }
        return entries.indices.compactMap { repeated[$0] ? nil : entries[$0] }
    }
}

private extension String {
    func trimmingSuffixBlanks() -> String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
