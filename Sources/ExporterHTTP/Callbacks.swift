internal import CMicroHTTPD

/// libmicrohttpd's access handler: called once the header is in, once per piece of body, and once at the end;
/// `request_context` carries a retained `RequestState` from the first call to `completedCallback`.
let accessCallback: ipc_mhd_access_handler = { cls, connection, url, method, _, _, uploadSize, requestContext in
    guard let cls, let connection, let uploadSize, let requestContext else { return .NO }
    let server = ServerContext.from(cls)
    guard let raw = requestContext.pointee else {
        let state = RequestState()
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        return server.admit(connection, state)
    }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    if uploadSize.pointee > 0 {  // a body: counted and dropped; past the limit the connection closes
        state.bodyBytes += uploadSize.pointee
        uploadSize.pointee = 0
        return state.bodyBytes > ServerContext.bodyLimit ? .NO : .YES
    }
    return server.respond(connection, state, method: method.map { String(cString: $0) } ?? "",
                          path: url.map { String(cString: $0) } ?? "")
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the response was sent or the connection ended; the request leaves the gate.
let completedCallback: ipc_mhd_completed_handler = { cls, _, requestContext, _ in
    guard let cls, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    if state.entered { ServerContext.from(cls).gate.leave() }
}

/// `MHD_OPTION_NOTIFY_CONNECTION`: a new connection's TLS session exists and its handshake has not begun, so the
/// client-certificate policy goes into the handshake itself, as Go's `tls.Config.ClientAuth` does.
let connectionCallback: ipc_mhd_connection_handler = { cls, connection, _, event in
    guard event == .CONNECTION_NOTIFY_STARTED, let cls, let connection else { return }
    let server = ServerContext.from(cls)
    guard server.handshakePolicy, let policy = server.clientAuth, policy != .noClientCert,
          let session = ipc_mhd_tls_session(connection) else { return }
    ipc_tls_client_policy(session, policy.requiresCertificate ? 1 : 0, policy.verifiesCertificate ? 1 : 0)
}
