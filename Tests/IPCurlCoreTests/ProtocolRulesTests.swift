import CurlKit
@testable import IPCurlCore
import Testing

/// `--proto-default`'s test of a URL's scheme (libcurl's `Curl_is_absolute_url`) and the `--proto` /
/// `--proto-redir` decision for the first URL and a redirect.
@Suite struct ProtocolRulesTests {
    @Test func aSchemeIsALetterThenSchemeCharactersThenColonSlash() {
        var rules = ProtocolRules()
        #expect(rules.absolute("a.test/x") == "a.test/x", "no default: as given")
        rules.defaultScheme = "https"
        for given in ["http://a.test/", "HTTP://a.test/", "a+b-c.d:/x", "ftp:/a"] { #expect(rules.absolute(given) == given) }
        for written in ["a.test:443/x", "a.test/x", "//a.test/x", "1a://x", "http:x", "a_b://x", ":/x", "",
                        String(repeating: "a", count: 41) + "://x"] {
            #expect(rules.absolute(written) == "https://" + written, "\(written)")
        }
        // libcurl reads at most 40 characters of a scheme.
        #expect(rules.absolute(String(repeating: "a", count: 40) + "://x") == String(repeating: "a", count: 40) + "://x")
    }

    @Test func redirectsAnswerToBothLists() throws {
        var rules = ProtocolRules()
        rules.allowed = ["https"]
        rules.redirectAllowed = ["http", "https"]
        #expect(throws: CurlError.unsupportedProtocol) { try rules.require("http", redirect: false) }
        #expect(throws: CurlError.unsupportedProtocol) { try rules.require("http", redirect: true) }
        try rules.require("https", redirect: true)
        rules.allowed = ProtocolRules.spoken
        rules.redirectAllowed = ["https"]
        try rules.require("http", redirect: false)
        #expect(throws: CurlError.unsupportedProtocol) { try rules.require("http", redirect: true) }
    }
}
