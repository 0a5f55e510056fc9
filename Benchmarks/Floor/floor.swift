// The start-up floor: one pinned HTTPS request through the CCurl module and nothing else, the least a Swift
// program built like ipcurl (release, static Swift runtime) can cost. `make bench` measures it beside ipcurl and
// curl, so the difference between this and ipcurl is what ipcurl's own code costs.
// Usage: floor URL HOST:PORT:ADDRESS CAFILE   (the body goes to stdout)
#if canImport(Glibc)
import Glibc
#endif
import CCurl

@main
enum Floor {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else {
            fputs("usage: floor URL HOST:PORT:ADDRESS CAFILE\n", stderr)
            exit(2)
        }
        curl_global_init(ccurl_global_all)
        guard let handle = curl_easy_init() else { exit(2) }
        let resolve = curl_slist_append(nil, arguments[2])
        _ = ccurl_easy_setopt_str(handle, CURLOPT_URL, arguments[1])
        _ = ccurl_easy_setopt_slist(handle, CURLOPT_RESOLVE, resolve)
        _ = ccurl_easy_setopt_str(handle, CURLOPT_CAINFO, arguments[3])
        let result = curl_easy_perform(handle)
        fflush(stdout)
        _exit(result == CURLE_OK ? 0 : Int32(result.rawValue))
    }
}
