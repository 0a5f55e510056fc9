@testable import HTTPDNS
import Testing

@Suite struct JSONValueTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func parsesVendorShapes() throws {
        let value = try parse(#" {"host":"a.test","ips":["127.0.0.2"],"ttl":60,"origin_ttl":-1,"x":1.5e2,"ok":true,"n":null} "#)
        #expect(value["host"] == .string("a.test"))
        #expect(value["ips"] == .array([.string("127.0.0.2")]))
        #expect(value["ttl"] == .integer(60))
        #expect(value["origin_ttl"] == .integer(-1))
        #expect(value["x"] == .number(150))
        #expect(value["ok"] == .bool(true))
        #expect(value["n"] == .null)
        #expect(value["missing"] == nil)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\u0041\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\nAé😀"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func hugeIntegersBecomeNumbers() throws {
        #expect(try parse("9999999999") == .integer(9_999_999_999))
        #expect(try parse("99999999999999999999") == .number(1e20))
    }

    @Test(arguments: [
        "", "<html>not json</html>", "{", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\" 1}", "{a:1}", "01", "1.", "-", ".5",
        "1e", "\"unterminated", "\"tab\there\"", "\"\\x\"", "\"\\ud800\"", "\"\\ud800\\u0041\"", "tru", "nul",
        "{\"a\":1} x", "{\"a\":1,\"a\":2}", "'single'", "[1]]",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(throws: JSONError.self) { try parse(text) }
    }

    @Test func limitsDepth() throws {
        #expect(throws: JSONError.self) { try parse(String(repeating: "[", count: 40) + String(repeating: "]", count: 40)) }
        _ = try parse(String(repeating: "[", count: 20) + String(repeating: "]", count: 20))
    }

    /// A member name from a server reaches error lines (and `-v`) only escaped and cut: no line break, no terminal control.
    @Test func aDuplicateMemberIsNamedOnOneLine() {
        #expect(throws: JSONError(description: #"not JSON: duplicate member 'a\x0ab\x7f' at byte 30"#)) {
            try parse(#"{"a\nb\u007f":1,"a\nb\u007f":2}"#)
        }
        #expect(throws: JSONError(description: "not JSON: duplicate member '\(String(repeating: "k", count: 64))'... at byte 150")) {
            try parse(#"{"\#(String(repeating: "k", count: 70))":1,"\#(String(repeating: "k", count: 70))":2}"#)
        }
    }

    @Test func errorNamesTheOffset() {
        #expect(throws: JSONError(description: "not JSON: expected ',' or ']' at byte 3")) { try parse("[1 2]") }
    }
}
