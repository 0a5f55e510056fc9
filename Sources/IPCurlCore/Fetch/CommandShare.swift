import CurlKit
import HTTPDNS
import Locking

/// What the transfers of one command line share, as curl's one share handle per command: the cookie store (for
/// the handles whose cookie engine is on: `-b`, `-c`), the TLS session cache and, when the transfers run one after
/// another, the connection pool, so `%{num_connects}` over three URLs of one host is `1 0 0`, and the one multi
/// handle they run on (``perform(_:)``).
///
/// The pool is kept exact to the pins: it records the address each pooled connection of a host and port went to,
/// and a transfer pinned to addresses that do not include one of them opens a connection of its own
/// (``needsNewConnection(for:)``), so no request reaches an address HTTPDNS (or `--resolve`) did not give for its
/// name. `-Z` transfers run on threads of their own: they share cookies and TLS sessions under locks, and each
/// handle keeps its own connections (libcurl 7.88 cannot share a pool between threads).
/// - SeeAlso: `CURLOPT_SHARE`, `CURL_LOCK_DATA_COOKIE`, `CURL_LOCK_DATA_SSL_SESSION`, `CURL_LOCK_DATA_CONNECT`,
///   `CURLOPT_FRESH_CONNECT`, `curl_multi_perform`; curl's `src/tool_operate.c`.
public final class CommandShare: @unchecked Sendable {
    private let share: ShareHandle?
    /// Whether the pool is shared (serial transfers).
    let sharesConnections: Bool
    private let lock = Lock()
    /// Where the pool's connections go: one row per host, port and address seen.
    private var pooled: [PooledConnection] = []
    /// A struct, not a tuple: an array of tuples makes its tuple type when the first row goes in.
    private struct PooledConnection {
        let host: String, port: Int, address: IPAddress
    }

    /// A share for serial transfers, or for `-Z`'s threads when `parallel`; `nil` inside when libcurl cannot make
    /// one (each transfer then keeps its own state, as a single transfer does).
    public init(parallel: Bool) {
        sharesConnections = !parallel
        share = parallel ? try? ShareHandle(sharing: [.cookies, .tlsSessions], threadSafe: true)
            : try? ShareHandle(sharing: [.cookies, .tlsSessions, .connections])
    }

    /// The loop serial transfers run on (``perform(_:)``), made with the first; `-Z`'s threads never use it.
    private var loop: MultiHandle?

    /// Runs `handle` to completion on the calling thread: serial transfers on the command's one loop, which keeps
    /// its wake-up socket pair between them (`curl_easy_perform` makes a multi handle per easy handle), `-Z`'s
    /// each on its own.
    func perform(_ handle: EasyHandle) throws(CurlError) {
        guard sharesConnections else { return try handle.perform() }
        if loop == nil { loop = try MultiHandle() }
        try loop?.performAlone(handle)
    }

    deinit {
        loop = nil  // the loop goes before the share its transfers used
    }

    /// Attaches `handle` to the command's share.
    func attach(to handle: EasyHandle) throws(CurlError) { try share?.attach(to: handle) }

    /// Whether a transfer pinned to `entry` must open a new connection: the pool holds a connection to the same
    /// host and port at an address `entry` does not list.
    func needsNewConnection(for entry: ResolveEntry) -> Bool {
        guard sharesConnections else { return false }
        return lock.locked {
            pooled.contains { $0.host == entry.host && $0.port == entry.port && !entry.addresses.contains($0.address) }
        }
    }

    /// Records the connection a transfer pinned to `entry` used, when it went to one of `entry`'s addresses (a
    /// connection to a proxy is never reused for a direct request, so it needs no record).
    func record(connectedTo primaryIP: String?, for entry: ResolveEntry) {
        guard sharesConnections, let primaryIP, let address = IPAddress(primaryIP), entry.addresses.contains(address) else { return }
        lock.locked {
            if !pooled.contains(where: { $0.host == entry.host && $0.port == entry.port && $0.address == address }) {
                pooled.append(PooledConnection(host: entry.host, port: entry.port, address: address))
            }
        }
    }
}
