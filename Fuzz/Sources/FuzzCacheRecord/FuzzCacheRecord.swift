import FuzzSupport
import HTTPDNS

/// Cache files: a record that parses writes a file that parses back to the same record (its `insecure` and
/// `unverified` marks included), with addresses of its family only; a file of the first format is refused.
@_cdecl("FuzzCacheRecord_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        do {
            let record = try CacheRecord(parsing: bytes(data, size))
            require(record.addresses.allSatisfy { $0.family == record.family }, "addresses of another family")
            require(HostName.normalized(record.host) == record.host, "host \(record.host.debugDescription) is not normalized")
            let text = record.text
            require(text.split(separator: "\n", omittingEmptySubsequences: false).count == 12, "the file is not 11 lines")
            require((try? CacheRecord(parsing: Array(text.utf8))) == record, "the record does not read back")
            requireValid(record.addresses, family: record.family, host: record.host, "cache record")
        } catch {
            requireOneLine("\(error)", "cache file error")
        }
        return 0
    }
}
