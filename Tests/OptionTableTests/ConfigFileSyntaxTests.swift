import OptionTable
import Testing

/// The lines of a `-K` file as curl 7.88 reads them: lines end at LF, white space is C's `isspace` (CR included),
/// `#`, `/` and `*` start comments, and a dashed name has no `:` separator.
@Suite struct ConfigFileSyntaxTests {
    private func entries(_ text: String) throws -> [ConfigFile.Entry] { try ConfigFile.entries(in: text, path: "cfg") }

    /// `text` with every LF preceded by CR.
    private func crlf(_ text: String) -> String {
        String(decoding: text.utf8.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }, as: UTF8.self)
    }

    private let sample = """
        # a comment
        silent
        max-time = 3
        --output "a file \\"q\\".txt"
        -X PUT

        url = https://a.test/
        data "x y"\t
        header: "X-A: b" trailing
        data = a b
        -d :x
        retry == 3
        --write-out=%{http_code}
        """

    @Test func crlfLineEndsReadAsLF() throws {
        let lf = try entries(sample)
        #expect(lf.count == 11)
        #expect(try entries(crlf(sample)) == lf)
        #expect(try entries(crlf(sample) + "\r") == lf)  // a CR ending the last line, without LF
        #expect(try entries(crlf(sample + "\n")) == lf)
    }

    @Test func valuesEndAtWhiteSpaceAndCRIsWhiteSpace() throws {
        let lines = try entries("write-out = a\rsilent\r\nurl = \"https://a.test/\"\r\ndata = a b\r\nheader=c #x\r\n")
        #expect(lines.map(\.name) == ["write-out", "url", "data", "header"])
        #expect(lines.map(\.value) == ["a", "https://a.test/", "a", "c"])
        #expect(lines.map(\.line) == [1, 2, 3, 4])
        // curl warns about what follows an unquoted value, except a comment
        #expect(lines.map(\.ignoresRest) == [true, false, true, false])
        #expect(try entries("verbose\r\n\r\n").map(\.value) == [nil])
    }

    @Test func slashAndStarLinesAreComments() throws {
        #expect(try entries("/silent\n  * silent\n\r# silent\n\t\r\n").isEmpty)
    }

    @Test func aDashedNameHasNoColonSeparator() throws {
        let lines = try entries("-d :x\n--output: f\n--output=f\n-o=f\ndata :: x\n")
        #expect(lines.map(\.name) == ["-d", "--output:", "--output", "-o=f", "data"])
        #expect(lines.map(\.value) == [":x", "f", "f", nil, "x"])
    }

    @Test func anUnterminatedQuoteNamesItsLineWithAnyLineEnd() {
        for text in ["silent\nheader \"X-A: b\n", "silent\r\nheader \"X-A: b\r\n", "silent\nheader \"X-A: b\\"] {
            #expect(throws: OptionError("cfg:2: unterminated quoted value")) { try entries(text) }
        }
    }

    @Test func aFileOrALineBeyondTheLimitsIsAnErrorNamingIt() throws {
        let limits = ConfigFile.Limits(bytes: 40, lineBytes: 10)
        #expect(try ConfigFile.entries(in: "silent\n# ten bytes\n" + String(repeating: "#", count: 20), path: "cfg",
                                       limits: ConfigFile.Limits(bytes: 40, lineBytes: 20)).map(\.name) == ["silent"])
        #expect(throws: OptionError("cfg:2: a line longer than 10 bytes, the most a config line may hold")) {
            try ConfigFile.entries(in: "silent\n# eleven by\r\n", path: "cfg", limits: limits)
        }
        #expect(throws: OptionError("<stdin>: larger than 40 bytes, the most a config file may hold")) {
            try ConfigFile.entries(in: String(repeating: "s\n", count: 20) + "s", path: "-", limits: limits)
        }
        #expect(ConfigFile.Limits.standard == ConfigFile.Limits(bytes: 16 << 20, lineBytes: 1 << 20))
        #expect(throws: OptionError("cfg: larger than 16 MiB, the most a config file may hold")) {
            try ConfigFile.entries(in: String(repeating: "\n", count: (16 << 20) + 1), path: "cfg")
        }
    }
}
