import ExporterHTTP
import IPCurlCLI
import IPCurlCore

/// The exporter's endpoints, as blackbox_exporter serves them: `/probe`, `/metrics`, `/-/healthy`, `/-/reload`
/// (POST only) and a landing page; anything else is 404.
/// - SeeAlso: blackbox_exporter `main.go`.
struct Routes: Sendable {
    let launch: ExporterEntry.Launch
    let log: ServerLog

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/probe":
            let response = launch.service.probe(query: request.query, header: request.header)
            return HTTPResponse(status: response.status, contentType: response.contentType, body: response.body)
        case "/metrics":
            let response = launch.service.metrics()
            return HTTPResponse(status: response.status, contentType: response.contentType, body: response.body)
        case "/-/healthy":
            return HTTPResponse(status: 200, body: "Healthy")
        case "/-/reload":
            guard request.method == "POST" else {
                return HTTPResponse(status: 405, body: "This endpoint requires a POST request.\n")
            }
            if let failure = reload(by: "/-/reload") {
                return HTTPResponse(status: 500, body: "failed to reload config: \(failure)\n")
            }
            return HTTPResponse(status: 200, body: "")
        case "/":
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Self.landingPage)
        default:
            return HTTPResponse(status: 404, body: "404 page not found\n")
        }
    }

    /// Reads the configuration again; the old one keeps serving when the new one is refused. Returns the reason
    /// for a refusal.
    @discardableResult
    func reload(by whom: String) -> String? {
        switch launch.reload() {
        case .success(let warnings):
            for warning in warnings { log.warn(warning) }
            log.info("Reloaded config file", ("by", whom))
            return nil
        case .failure(let error):
            log.error("Error reloading config", ("by", whom), ("err", error.message))
            return error.message
        }
    }

    static let landingPage = """
        <html>
        <head><title>ipcurl exporter</title></head>
        <body>
        <h1>ipcurl exporter</h1>
        <p>A blackbox_exporter drop-in that resolves every probe through HTTPDNS.</p>
        <p><a href="probe?target=https://example.com/&debug=true">Debug probe</a></p>
        <p><a href="metrics">Metrics</a></p>
        </body>
        </html>

        """
}
