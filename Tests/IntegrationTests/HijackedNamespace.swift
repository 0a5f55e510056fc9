import Foundation

/// A private mount namespace whose hosts file sends every spelling of a.test to 127.0.0.3 and whose
/// resolv.conf names a loopback resolver: what the system would answer is the wrong address, so any lookup
/// that escapes the pin shows.
func inHijackedNamespace(_ command: [String], extraHosts: String = "") throws -> Run {
    let scratch = try TemporaryDirectory()
    let hosts = scratch.path + "/hosts", resolv = scratch.path + "/resolv.conf"
    try ("127.0.0.1 localhost\n127.0.0.3 a.test a.test. A.TEST xn--bcher-kva.test\n" + extraHosts)
        .write(toFile: hosts, atomically: true, encoding: .utf8)
    try "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n".write(toFile: resolv, atomically: true, encoding: .utf8)
    let script = "mount --bind \"$1\" /etc/hosts && mount --bind \"$2\" /etc/resolv.conf && shift 2 && exec \"$@\""
    var environment = ProcessInfo.processInfo.environment
    environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
    environment["LC_ALL"] = "C"
    environment.removeValue(forKey: "IPCURL_DNS")
    return try run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", hosts, resolv] + command, environment: environment)
}
