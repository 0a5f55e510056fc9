#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import ExporterHTTP
import IPCurlCLI
import IPCurlCore

// `ipcurl-exporter`: `ipcurl exporter`'s server. The option table, the configuration and the probes are IPCurlCLI's
// and IPCurlCore's; this program adds only the HTTP server (libmicrohttpd), its routes and its signals, so the
// `ipcurl` program never loads them.
ExporterEntry.main { launch, diagnostics in
    let log = ServerLog(level: launch.logLevel, format: launch.logFormat)
    for warning in launch.warnings { log.warn(warning) }
    // The server's threads inherit this mask; the signals are taken by `sigwait` below, on this thread alone.
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let routes = Routes(launch: launch, log: log)
    let server: HTTPServer
    do {
        server = try HTTPServer(listenAddress: launch.listenAddress, security: try WebSecurity.load(launch.webConfigFile, log: log)) {
            routes.answer($0)
        }
    } catch let error as HTTPServerError {
        return .refused(.usage(error.description))
    } catch let error as CurlError {
        return .refused(error)
    } catch {
        return .refused(.usage("\(error)"))
    }
    log.info("Listening on address", ("address", launch.listenAddress), ("port", String(server.port)))
    while true {
        var received: Int32 = 0
        guard sigwait(&signals, &received) == 0 else { continue }
        if received == SIGHUP {
            routes.reload(by: "SIGHUP")
            continue
        }
        log.info("Received signal, exiting gracefully", ("signal", received == SIGTERM ? "terminated" : "interrupt"))
        server.stop(graceMilliseconds: 1500)
        return .stopped
    }
}
