#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import Foundation
import Testing

/// `SystemTrust.choose(bundle:directory:)` over a scratch bundle and CA directory changed in a set order: the
/// hashed directory only when it holds hash links, the bundle was not changed after it (its modification or, as a
/// rename leaves it, status-change time) and the bundle holds no more certificates than the directory links.
@Suite struct SystemTrustChoiceTests {
    /// A scratch `certs` directory and a `bundle.crt` beside it, removed afterwards.
    final class Store {
        let root: String
        var directory: String { root + "/certs" }
        var bundle: String { root + "/bundle.crt" }

        init(entries: [String]) throws {
            root = NSTemporaryDirectory() + "/ipcurl-trust-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try "-----BEGIN CERTIFICATE-----\n".write(toFile: bundle, atomically: false, encoding: .utf8)
            for entry in entries {
                try "".write(toFile: directory + "/" + entry, atomically: false, encoding: .utf8)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Dates the bundle back a minute, then dates the directory two seconds ahead: the directory is the newer. The
        /// bundle's status-change time is the kernel's fine-grained now, which can be past `time(nil)`'s coarse
        /// second by a clock tick across a second boundary, so one second ahead is not always later.
        func changeDirectoryAfterBundle() throws {
            try Self.setTime(bundle, time(nil) - 60)
            try Self.setTime(directory, time(nil) + 2)
        }

        /// Dates the directory back a minute; the bundle's status-change time is now (`utimensat` sets it).
        func changeBundleAfterDirectory() throws {
            try Self.setTime(directory, time(nil) - 60)
            try Self.setTime(bundle, time(nil) - 120)
        }

        static func setTime(_ path: String, _ seconds: Int) throws {
            let time = timespec(tv_sec: seconds, tv_nsec: 0)
            let result = withUnsafePointer(to: (time, time)) {
                $0.withMemoryRebound(to: timespec.self, capacity: 2) { utimensat(AT_FDCWD, path, $0, 0) }
            }
            if result != 0 { throw CocoaError(.fileWriteUnknown) }
        }
    }

    static let hashed = ["GlobalSign_Root_R46.pem", "002c0b4f.0", "ca.pem"]

    @Test func hashLinksAndAnOlderBundleChooseTheDirectory() throws {
        let store = try Store(entries: Self.hashed)
        try store.changeDirectoryAfterBundle()
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.directory) == .hashedDirectory(store.directory))
    }

    /// A bundle replaced by a rename leaves the directory as new as it: the count tells them apart.
    @Test func aBundleWithMoreCertificatesThanLinksKeepsTheDefaults() throws {
        let store = try Store(entries: Self.hashed)
        try String(repeating: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", count: 2)
            .write(toFile: store.bundle, atomically: false, encoding: .utf8)
        try store.changeDirectoryAfterBundle()
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.directory) == .builtInDefaults)
        try "".write(toFile: store.directory + "/5a4d6896.1", atomically: false, encoding: .utf8)
        try store.changeDirectoryAfterBundle()
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.directory) == .hashedDirectory(store.directory))
    }

    @Test func aBundleNewerThanTheDirectoryKeepsTheDefaults() throws {
        let store = try Store(entries: Self.hashed)
        try store.changeBundleAfterDirectory()
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.directory) == .builtInDefaults)
    }

    @Test func aDirectoryWithoutHashLinksKeepsTheDefaults() throws {
        let store = try Store(entries: ["ca.pem", "abcdefgh.0", "002c0b4f.pem", "002c0b4f.0.bak", "README"])
        try store.changeDirectoryAfterBundle()
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.directory) == .builtInDefaults)
        #expect(SystemTrust.choose(bundle: nil, directory: store.directory) == .builtInDefaults)
    }

    @Test func aMissingDirectoryKeepsTheDefaults() throws {
        let store = try Store(entries: Self.hashed)
        try store.changeDirectoryAfterBundle()
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.root + "/missing") == .builtInDefaults)
        #expect(SystemTrust.choose(bundle: store.bundle, directory: nil) == .builtInDefaults)
        #expect(SystemTrust.choose(bundle: store.bundle, directory: "") == .builtInDefaults)
        #expect(SystemTrust.choose(bundle: store.bundle, directory: store.bundle) == .builtInDefaults, "a file, not a directory")
    }

    @Test func noBundleChoosesAHashedDirectory() throws {
        let store = try Store(entries: Self.hashed)
        try store.changeBundleAfterDirectory()
        #expect(SystemTrust.choose(bundle: nil, directory: store.directory) == .hashedDirectory(store.directory))
        #expect(SystemTrust.choose(bundle: "", directory: store.directory) == .hashedDirectory(store.directory))
        #expect(SystemTrust.choose(bundle: store.root + "/missing.crt", directory: store.directory)
                == .hashedDirectory(store.directory))
    }
}
