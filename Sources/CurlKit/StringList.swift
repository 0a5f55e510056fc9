import CCurl

/// An owned `curl_slist`, freed when the last reference goes.
///
/// libcurl does not copy lists passed to `CURLOPT_RESOLVE` or `CURLOPT_HTTPHEADER`; ``EasyHandle`` keeps
/// each list it was given alive until the handle itself is gone.
/// - SeeAlso: `curl_slist_append`, `curl_slist_free_all`.
public final class StringList {
    /// The head of the list, or `nil` when empty. Valid for the lifetime of this object.
    public private(set) var head: UnsafeMutablePointer<curl_slist>?
    /// The strings, in order, as appended.
    public private(set) var strings: [String] = []

    /// Builds a list from `strings`.
    public init(_ strings: [String] = []) throws(CurlError) {
        for string in strings { try append(string) }
    }

    /// Appends a copy of `string` (libcurl copies it into the list node).
    public func append(_ string: String) throws(CurlError) {
        guard let next = curl_slist_append(head, string) else { throw CurlError.outOfMemory }
        head = next
        strings.append(string)
    }

    deinit { curl_slist_free_all(head) }
}

@available(*, unavailable, message: "a curl_slist is not thread-safe")
extension StringList: Sendable {}
