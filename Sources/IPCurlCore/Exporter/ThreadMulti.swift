#if canImport(Glibc)
import Glibc
#endif
import CurlKit

/// One libcurl multi handle per thread, kept for the thread's life, on which the exporter's probes run: libcurl keeps
/// the CA store it built from a CA file in the multi handle (`CURLOPT_CA_CACHE_TIMEOUT`, a day by default), so the
/// probes a server thread runs one after the other (a scraper's keep-alive connection) load the file once instead
/// of once per probe. Connections are not kept: each probe's is fresh and closed after it.
/// - SeeAlso: `curl_multi_init(3)`, `CURLOPT_CA_CACHE_TIMEOUT`, `pthread_key_create(3)`.
enum ThreadMulti {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<MultiHandle>.fromOpaque(raw).release() }
        }
        return key
    }()

    /// This thread's multi handle, made on first use; `nil` when libcurl cannot make one.
    static func current() -> MultiHandle? {
        if let raw = pthread_getspecific(key) { return Unmanaged<MultiHandle>.fromOpaque(raw).takeUnretainedValue() }
        guard let multi = try? MultiHandle() else { return nil }
        pthread_setspecific(key, Unmanaged.passRetained(multi).toOpaque())
        return multi
    }

    /// Runs `handle` to its end on this thread's multi handle (on its own when there is none); its error, if any.
    static func perform(_ handle: EasyHandle) -> CurlError? {
        guard let multi = current() else {
            do { try handle.perform() } catch { return error }
            return nil
        }
        do { return try multi.perform([handle])[0] } catch { return error }
    }
}
