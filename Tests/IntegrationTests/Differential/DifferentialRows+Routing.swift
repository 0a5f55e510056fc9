/// curl's connection-routing options: `--connect-to`, `--resolve '*:PORT:ADDR'`, `--interface`, `--local-port`,
/// `--unix-socket`, `--alt-svc`, `--hsts` (RoutingOptionTests has the cases that need a server or file of their own).
extension DifferentialRows {
    static let routing: [DifferentialRow] = [
        .init("-s", "--connect-to", "a.test:{PORT}:b.test:{PORT}", "-w", "%{remote_ip}", echo),
        .init("-s", "--connect-to", "a.test:{PORT}:b.test:{PORT}", "-w", "%{remote_ip}", echo, viaDoH: true),
        .init("-s", "--connect-to", "::b.test:", "--connect-to", "a.test::127.0.0.2:", "-w", "%{remote_ip}", echo, viaDoH: true),
        .init("-s", "--connect-to", "a.test:{PORT}:b.test:70000", echo),
        .init("-s", "--resolve", "*:{PORT}:127.0.0.2", "-w", "%{remote_ip}", "https://c.any.test:{PORT}/api/echo", viaDoH: true),
        .init("-s", "--resolve", "+c.any.test:{PORT}:127.0.0.2", "https://c.any.test:{PORT}/api/echo", viaDoH: true),
        .init("-s", "--interface", "lo", "-w", "%{local_ip}", echo),
        .init("-s", "--interface", "127.0.0.1", "-w", "%{local_ip}", echo),
        .init("-s", "--interface", "if!nosuch0", echo),
        .init("-s", "--local-port", "40000-40100", "-w", "%{http_code}", echo),
        .init("-s", "--local-port", "70000", echo),
        .init("-s", "--unix-socket", "{DIR}/none.sock", echo),
        .init("-s", "--abstract-unix-socket", "ipcurl-none-{KEY}", echo),
        .init("-s", "--hsts", "{DIR}/hsts", "-w", "%{scheme}", "{H}/api/echo"),
        .init("-s", "--alt-svc", "{DIR}/alt-svc", "-w", "%{remote_ip}", echo),
    ]
}
