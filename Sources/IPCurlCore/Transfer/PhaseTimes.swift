import CurlKit

/// A transfer's phase times in microseconds since its start, as libcurl measures them, plus ipcurl's own lookup
/// time; `-w`'s `%{time_*}` and `%{dns_time}` (WriteOut holds the name table).
/// - SeeAlso: `CURLINFO_NAMELOOKUP_TIME_T`, `CURLINFO_CONNECT_TIME_T`, `CURLINFO_APPCONNECT_TIME_T`,
///   `CURLINFO_PRETRANSFER_TIME_T`, `CURLINFO_STARTTRANSFER_TIME_T`, `CURLINFO_REDIRECT_TIME_T`,
///   `CURLINFO_TOTAL_TIME_T`.
public struct PhaseTimes: Sendable, Equatable {
    public var nameLookup: Int64 = 0, connect: Int64 = 0, appConnect: Int64 = 0, preTransfer: Int64 = 0
    public var startTransfer: Int64 = 0, redirect: Int64 = 0, total: Int64 = 0
    /// ipcurl's HTTPDNS lookup time (`%{dns_time}`), measured outside libcurl.
    public var dns: Int64 = 0

    /// All zero.
    public init() {}

    /// libcurl's times of `handle` after a transfer.
    init(handle: EasyHandle) {
        nameLookup = handle.microseconds(.nameLookup)
        connect = handle.microseconds(.connect)
        appConnect = handle.microseconds(.appConnect)
        preTransfer = handle.microseconds(.preTransfer)
        startTransfer = handle.microseconds(.startTransfer)
        redirect = handle.microseconds(.redirect)
        total = handle.microseconds(.total)
    }

    /// The phase times of two hops one after the other (libcurl adds each hop's phase time); ``redirect`` is left
    /// to the caller.
    func adding(_ other: PhaseTimes) -> PhaseTimes {
        var sum = self
        sum.nameLookup += other.nameLookup
        sum.connect += other.connect
        sum.appConnect += other.appConnect
        sum.preTransfer += other.preTransfer
        sum.startTransfer += other.startTransfer
        sum.total += other.total
        sum.dns += other.dns
        return sum
    }
}

/// A transfer's byte counts and rates (bytes per second): `-w`'s `%{size_*}` and `%{speed_*}`.
/// - SeeAlso: `CURLINFO_SIZE_DOWNLOAD_T`, `CURLINFO_SIZE_UPLOAD_T`, `CURLINFO_HEADER_SIZE`,
///   `CURLINFO_REQUEST_SIZE`, `CURLINFO_SPEED_DOWNLOAD_T`, `CURLINFO_SPEED_UPLOAD_T`.
public struct TransferCounts: Sendable, Equatable {
    public var sizeDownload: Int64 = 0, sizeUpload: Int64 = 0, sizeHeader: Int64 = 0, sizeRequest: Int64 = 0
    public var speedDownload: Int64 = 0, speedUpload: Int64 = 0

    /// All zero.
    public init() {}

    /// libcurl's counts of `handle` after a transfer.
    init(handle: EasyHandle) {
        sizeDownload = handle.count(.sizeDownload)
        sizeUpload = handle.count(.sizeUpload)
        speedDownload = handle.count(.speedDownload)
        speedUpload = handle.count(.speedUpload)
        sizeHeader = Int64(handle.headerSize)
        sizeRequest = Int64(handle.requestSize)
    }
}
