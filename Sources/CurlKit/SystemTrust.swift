#if canImport(Glibc)
import Glibc
#endif
internal import CCurl
import Locking

/// The last choice made, by bundle and directory: a process asks once, not once per handle (a check's probes).
private final class LastChoice: @unchecked Sendable {
    private let lock = Lock()
    private var last: (bundle: String?, directory: String?, choice: SystemTrust)?

    /// The choice made for `bundle` and `directory`, if the last one was for them.
    func choice(bundle: String?, directory: String?) -> SystemTrust? {
        lock.locked { last.flatMap { $0.bundle == bundle && $0.directory == directory ? $0.choice : nil } }
    }

    /// Keeps `choice` as the one for `bundle` and `directory`.
    func remember(_ choice: SystemTrust, bundle: String?, directory: String?) {
        lock.locked { last = (bundle, directory, choice) }
    }
}

private let lastChoice = LastChoice()

/// How a transfer that names no CA file or directory trusts peers: through libcurl's built-in CA directory when it
/// is hashed (`openssl rehash`), else through its built-in bundle.
///
/// OpenSSL parses every certificate of a CA *bundle* for each connection (about 140 certificates and 229 M
/// instructions on Debian), while a *hashed directory* is looked up by subject, one file per issuer the chain
/// needs. Debian's `update-ca-certificates` keeps both from the same set, so the directory alone trusts the same
/// CAs for a fraction of the cost. The directory is used only when it looks current (``choose(bundle:directory:)``:
/// as new as the bundle, and linking as many certificates as it holds); a bundle changed since the last rehash (a
/// CA appended to it but never linked) keeps libcurl's defaults, bundle and directory both, so nothing the bundle
/// trusts is lost.
/// - SeeAlso: `CURLOPT_CAINFO`, `CURLOPT_CAPATH`, `CURLINFO_CAINFO`, `CURLINFO_CAPATH` (libcurl 7.84.0).
public enum SystemTrust: Equatable, Sendable {
    /// Only the hashed directory: `CURLOPT_CAINFO` unset, `CURLOPT_CAPATH` the directory.
    case hashedDirectory(String)
    /// libcurl's built-in defaults, unchanged.
    case builtInDefaults

    /// The choice for libcurl's built-in locations, read from `handle` (`CURLINFO_CAINFO`, `CURLINFO_CAPATH`),
    /// when the transfer names no CA file or names the built-in bundle itself (`CURL_CA_BUNDLE` or `SSL_CERT_FILE`
    /// set to it, as many container images do): the same trust either way.
    public static func choose(for handle: EasyHandle, caFile: String?) -> SystemTrust {
        let bundle = handle.info(string: CURLINFO_CAINFO)
        guard caFile == nil || caFile == bundle else { return .builtInDefaults }
        let directory = handle.info(string: CURLINFO_CAPATH)
        if let known = lastChoice.choice(bundle: bundle, directory: directory) { return known }
        let choice = choose(bundle: bundle, directory: directory)
        lastChoice.remember(choice, bundle: bundle, directory: directory)
        return choice
    }

    /// The choice for a given bundle and directory (either may be absent from libcurl's build): the directory
    /// when it holds hash links, was changed no earlier than the bundle, and links at least as many certificates as
    /// the bundle holds. The count catches a bundle replaced by a rename (an editor, `sed -i`, a configuration
    /// tool), which makes the directory look as new as the bundle while it lacks the bundle's added CA.
    public static func choose(bundle: String?, directory: String?) -> SystemTrust {
        guard let directory, !directory.isEmpty, let directoryTime = changeTime(directory, directory: true)
        else { return .builtInDefaults }
        let links = hashLinkCount(directory)
        guard links > 0 else { return .builtInDefaults }
        if let bundle, !bundle.isEmpty, let bundleTime = changeTime(bundle, directory: false) {
            guard bundleTime <= directoryTime, let certificates = certificateCount(bundle), certificates <= links
            else { return .builtInDefaults }
        }
        return .hashedDirectory(directory)
    }

    /// Installs this choice on `handle`.
    func apply(to handle: EasyHandle) throws(CurlError) {
        guard case .hashedDirectory(let directory) = self else { return }
        try handle.set(CURLOPT_CAINFO, nil)
        try handle.set(caPath: directory)
        try handle.set(CURLOPT_PROXY_CAINFO, nil)
        try handle.set(CURLOPT_PROXY_CAPATH, directory)
    }

    /// The later of `path`'s modification and status-change times in nanoseconds (a rename changes the latter),
    /// if it exists and is a directory (or a regular file).
    private static func changeTime(_ path: String, directory: Bool) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, ((info.st_mode & S_IFMT) == S_IFDIR) == directory else { return nil }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        return directory ? modified : max(modified, changed)
    }

    /// How many OpenSSL subject-hash names (`5a4d6896.0`: 8 lower-case hex digits, a dot, decimal digits) the
    /// directory holds: the names a CA directory lookup opens.
    private static func hashLinkCount(_ directory: String) -> Int {
        guard let stream = opendir(directory) else { return 0 }
        defer { closedir(stream) }
        var count = 0
        while let entry = readdir(stream) {
            let matches = withUnsafeBytes(of: entry.pointee.d_name) { name in
                guard (0..<8).allSatisfy({ isHexDigit(name[$0]) }), name[8] == UInt8(ascii: "."), isDigit(name[9])
                else { return false }
                var index = 10
                while index < name.count, isDigit(name[index]) { index += 1 }
                return index < name.count && name[index] == 0
            }
            if matches { count += 1 }
        }
        return count
    }

    /// The number of PEM blocks (`-----BEGIN `) in `bundle`, or `nil` when it cannot be read: its certificates,
    /// or more, which only errs towards libcurl's defaults.
    private static func certificateCount(_ bundle: String) -> Int? {
        let descriptor = open(bundle, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let marker = Array("-----BEGIN ".utf8)
        var count = 0, carried: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0 { return nil }
            if read == 0 { return count }
            // The previous chunk's tail is searched again with this one, so a marker split between them counts.
            let text = carried + chunk[0..<read]
            var start = 0
            while let found = find(marker, in: text, from: start) {
                count += 1
                start = found + marker.count
            }
            // Shorter than the marker, so nothing counted is counted again; "BEGIN " holds no "-", so no marker
            // starts inside another.
            carried = Array(text.suffix(marker.count - 1))
        }
    }

    /// The first index of `marker` in `text` at or after `start`: `memchr` for its first byte (`-`, which base64
    /// never holds, so candidates are few), then a comparison.
    private static func find(_ marker: [UInt8], in text: [UInt8], from start: Int) -> Int? {
        text.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var index = start
            while index <= text.count - marker.count {
                guard let hit = memchr(base + index, Int32(marker[0]), text.count - marker.count + 1 - index)
                else { return nil }
                index = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + index, marker, marker.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
