internal import CCurl

/// An owned `curl_slist`, freed when the last reference goes.
///
/// libcurl does not copy lists passed to `CURLOPT_RESOLVE` or `CURLOPT_HTTPHEADER`; ``EasyHandle`` keeps
/// each list it was given alive until the handle itself is gone.
///
/// Internal to CurlKit: the layers above hand lists over as `[String]` (``EasyHandle/set(resolveEntries:)``,
/// ``EasyHandle/set(headers:)``).
/// - SeeAlso: `curl_slist_append`, `curl_slist_free_all`.
final class StringList {
    /// The head of the list, or `nil` when empty. Valid for the lifetime of this object.
    private(set) var head: UnsafeMutablePointer<curl_slist>?
    /// The last node, where the next string goes.
    private var tail: UnsafeMutablePointer<curl_slist>?
    /// The strings, in order, as appended.
    private(set) var strings: [String] = []

    /// The strings of a list libcurl made (an info's), in order; the list stays the caller's to free.
    static func strings(of list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var strings: [String] = [], node = list
        while let item = node {
            if let data = item.pointee.data { strings.append(String(cString: data)) }
            node = item.pointee.next
        }
        return strings
    }

    /// Builds a list from `strings`.
    init(_ strings: [String] = []) throws(CurlError) {
        for string in strings { try append(string) }
    }

    /// Appends a copy of `string` (libcurl copies it into the list node). `curl_slist_append` walks the list to
    /// its end on every call, so each node is made alone and linked after the kept tail: a list of 100,000
    /// headers is built in linear time.
    func append(_ string: String) throws(CurlError) {
        guard let node = curl_slist_append(nil, string) else { throw CurlError.outOfMemory }
        if let tail { tail.pointee.next = node } else { head = node }
        tail = node
        strings.append(string)
    }

    deinit { curl_slist_free_all(head) }
}

@available(*, unavailable, message: "a curl_slist is not thread-safe")
extension StringList: Sendable {}
