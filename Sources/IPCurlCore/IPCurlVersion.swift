/// ipcurl's version, shown by `--version` and in the User-Agent.
public enum IPCurlVersion {
    /// Semantic version of this build.
    public static let number = "0.1.0"
    /// The `User-Agent` a request sends unless `-A` says otherwise.
    public static let userAgent = "ipcurl/" + number
}
