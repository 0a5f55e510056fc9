import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// The CLI side of `--config.file`: blackbox_exporter's configuration read by ``ExporterConfig`` with the operator's
/// trust (it may name CA, certificate and key files and resolver secrets, as blackbox's may), each module turned
/// into what ``ExporterService`` runs. A module's `httpdns:` keys are the resolver options' long names, applied
/// after the command line's, so they override it for that module; a provider chosen there replaces the command
/// line's. A module's `preferred_ip_protocol` wins over the command line's `-4`/`-6`: such a module resolves both
/// families and its preference and `ip_protocol_fallback` choose; a module that gives none prefers the family
/// `-4`/`-6` name (IPv6, blackbox's default, with neither).
enum ExporterModules {
    /// The resolver options that restrict the address families.
    static let familyOptions: Set = ["ipv4", "ipv6"]

    /// The modules of `path` and the warnings to tell (keys blackbox knows that ipcurl does not implement, modules
    /// of other probers), or the one-line reason the file cannot be used (`FILE:LINE:COL: …`).
    static func load(_ path: String, commandLine: [(long: String, argument: OptionArgument)])
        -> Result<(modules: [String: ExporterService.Module], warnings: [String]), CurlError> {
        let config: ExporterConfig
        do throws(ExporterConfigError) {
            config = try ExporterConfig.load(path: path, resolverOptions: CheckTargetsFile.resolverKeys(trust: .operator))
        } catch {
            return .failure(.usage(error.description))
        }
        var modules: [String: ExporterService.Module] = [:]
        for (name, module) in config.modules {
            var service = ExporterService.Module(prober: module.prober, timeoutSeconds: module.timeoutSeconds)
            if let http = module.http {
                do throws(CurlError) {
                    service.http = try settings(http)
                    let block = http.httpdns?.resolverArguments ?? []
                    let narrowed = commandLine.contains { familyOptions.contains($0.long) }
                    if !block.isEmpty || (http.preferredIPProtocolGiven && narrowed) {
                        let replayed = http.preferredIPProtocolGiven ? commandLine.filter { !familyOptions.contains($0.long) } : commandLine
                        service.resolver = try resolver(block, path: path, commandLine: replayed)
                    }
                    if !http.preferredIPProtocolGiven {
                        let families = service.resolver?.families ?? family(of: commandLine)
                        service.http.preferredFamily = families == .v4Only ? .v4 : .v6
                    }
                } catch {
                    return .failure(.usage("\(path): module \(Printable.quoted(name)): \(error.message)"))
                }
                service.shown = shown(http)
            }
            modules[name] = service
        }
        return .success((modules, config.warnings))
    }

    /// The families the command line's `-4`/`-6` allow (the last one wins), as ``PolicyOptions`` reads them.
    static func family(of commandLine: [(long: String, argument: OptionArgument)]) -> AddressFamilies {
        switch commandLine.last(where: { familyOptions.contains($0.long) })?.long {
        case "ipv4": .v4Only
        case "ipv6": .v6Only
        default: .both
        }
    }

    /// The probe settings of a module's `http:` block; a `basic_auth.password_file` is read here (a secret file,
    /// as the other secrets: its permissions checked).
    static func settings(_ http: HTTPProbeModule) throws(CurlError) -> BlackboxHTTPSettings {
        var settings = BlackboxHTTPSettings()
        settings.validStatusCodes = http.validStatusCodes
        settings.validHTTPVersions = http.validHTTPVersions
        settings.method = http.method
        settings.headers = http.headers
        settings.body = http.body
        settings.failIfSSL = http.failIfSSL
        settings.failIfNotSSL = http.failIfNotSSL
        settings.failIfBodyMatches = http.failIfBodyMatches
        settings.failIfBodyNotMatches = http.failIfBodyNotMatches
        settings.failIfHeaderMatches = http.failIfHeaderMatches.map { .init(header: $0.header, regexp: $0.regexp, allowMissing: $0.allowMissing) }
        settings.failIfHeaderNotMatches = http.failIfHeaderNotMatches.map { .init(header: $0.header, regexp: $0.regexp, allowMissing: $0.allowMissing) }
        settings.followRedirects = http.followRedirects
        settings.caFile = http.tls.caFile
        settings.insecureSkipVerify = http.tls.insecureSkipVerify
        settings.serverName = http.tls.serverName
        settings.tls.certificate = http.tls.certFile
        settings.tls.privateKey = http.tls.keyFile
        settings.tls.minimumVersion = http.tls.minVersion.flatMap { CurlKit.TLSVersion(rawValue: $0.number) }
        settings.tls.maximumVersion = http.tls.maxVersion.flatMap { CurlKit.TLSVersion(rawValue: $0.number) }
        if let basic = http.basicAuth {
            var password = basic.password ?? ""
            if let file = basic.passwordFile {
                password = try Secret.load(file: file, variable: nil)?.value ?? ""
            }
            settings.basicAuth = (basic.username, password)
        }
        settings.bearerToken = http.bearerToken
        settings.preferredFamily = http.preferredIPProtocol == .ip4 ? .v4 : .v6
        settings.ipProtocolFallback = http.ipProtocolFallback
        settings.allIPs = http.httpdns?.allIPs ?? false
        settings.compareSystem = http.httpdns?.compareSystem ?? false
        return settings
    }

    /// The resolver of a module's `httpdns:` keys over the command line's: a provider the block chooses replaces the
    /// command line's choice; every other key is applied after the command line's.
    static func resolver(_ arguments: [ResolverArgument], path: String,
                         commandLine: [(long: String, argument: OptionArgument)]) throws(CurlError) -> ResolverSettings {
        var options = ResolverOptions()
        let blockChooses = arguments.contains { ProviderDescriptor.chooses($0.option) }
        for (long, argument) in commandLine {
            guard let row = ResolverOptions.rows.first(where: { $0.long == long }) else { continue }
            if blockChooses, ProviderDescriptor.chooses("--" + long) { continue }
            do { try row.apply(&options, argument) } catch { throw CurlError.usage("\(error)") }
        }
        var parser = CommandLineParser(rows: ResolverOptions.rows) { _, value in
            throw OptionError("unexpected value \(Printable.quoted(String(value.prefix(40))))")
        }
        for entry in arguments {
            do {
                try parser.parse([entry.option] + (entry.value.map { [$0] } ?? []), into: &options)
            } catch {
                throw CurlError.usage("\(path):\(entry.line):\(entry.column): httpdns: \(error)")
            }
        }
        return try options.settings()
    }

    /// The module as `debug=true` shows it: blackbox's keys with their values, secrets as `<secret>`.
    static func shown(_ http: HTTPProbeModule) -> String {
        var lines = ["prober: http", "http:"]
        if !http.validStatusCodes.isEmpty { lines.append("  valid_status_codes: [\(http.validStatusCodes.map(String.init).joined(separator: ", "))]") }
        if !http.validHTTPVersions.isEmpty { lines.append("  valid_http_versions: [\(http.validHTTPVersions.joined(separator: ", "))]") }
        lines.append("  method: \(http.method)")
        if !http.headers.isEmpty {
            lines.append("  headers:")
            for header in http.headers {
                let secret = CredentialRedaction.secretHeaderNames.contains(header.name.lowercased())
                lines.append("    \(header.name): \(secret ? "<secret>" : header.value)")
            }
        }
        lines.append("  follow_redirects: \(http.followRedirects)")
        lines.append("  preferred_ip_protocol: \(http.preferredIPProtocol.rawValue)")
        lines.append("  ip_protocol_fallback: \(http.ipProtocolFallback)")
        if let basic = http.basicAuth { lines.append("  basic_auth:\n    username: \(basic.username)\n    password: <secret>") }
        if http.bearerToken != nil { lines.append("  bearer_token: <secret>") }
        if let ca = http.tls.caFile { lines.append("  tls_config:\n    ca_file: \(ca)\n    insecure_skip_verify: \(http.tls.insecureSkipVerify)") }
        if let block = http.httpdns {
            lines.append("  httpdns:")
            for argument in block.resolverArguments {
                let key = String(argument.option.dropFirst(2))
                let secretKey = key.hasSuffix("-file") || ResolverOptions.rows.first { $0.long == key }?.secret != nil
                lines.append("    \(key): \(argument.value.map { secretKey ? "<secret>" : $0 } ?? "true")")
            }
            if block.allIPs { lines.append("    all_ips: true") }
            if block.compareSystem { lines.append("    compare_system: true") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
