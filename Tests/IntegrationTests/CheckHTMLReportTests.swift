import Foundation
import Testing

/// `ipcurl check --format html` against the lab, read by html5lib and rendered by headless Chromium (without a
/// network: `unshare -n`): the page parses without errors, renders to a picture with the report's colours, its text
/// holds every address and failure reason, and markup a server sends stays text.
@Suite struct CheckHTMLReportTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    static let python = "/usr/bin/python3"
    static var hasChromium: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") }

    /// `ipcurl check … --format html -o DIR/report.html`; the page's path.
    func htmlReport(_ arguments: [String], in scratch: TemporaryDirectory) throws -> String {
        let path = scratch.path + "/report.html"
        let result = try ipcurl(["check"] + lab.resolverArguments + arguments + ["--format", "html", "-o", path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "")
        return path
    }

    /// html5lib's parse errors (none expected), the page's text, and its `<script>` elements, as JSON.
    func html5lib(_ page: String) throws -> (errors: [String], text: String, scripts: Int, references: [String]) {
        let script = """
            import sys, json, html5lib
            parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
            doc = parser.parse(open(sys.argv[1], 'rb').read().decode('utf-8'))
            refs = [e.get(a) for e in doc.iter() if isinstance(e.tag, str) for a in ('src', 'href') if e.get(a) is not None]
            print(json.dumps({'errors': [str(e) for e in parser.errors], 'text': ''.join(doc.find('body').itertext()),
                              'scripts': len(doc.findall('.//script')), 'refs': refs}))
            """
        let result = try run(Self.python, ["-c", script, page])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return (object["errors"] as? [String] ?? ["unreadable"], object["text"] as? String ?? "", object["scripts"] as? Int ?? -1,
                object["refs"] as? [String] ?? [])
    }

    /// Headless Chromium in a namespace without a network: `--dump-dom` and `--screenshot` of `page`.
    func chromium(_ page: String, _ mode: String, in scratch: TemporaryDirectory) throws -> Run {
        try run("/usr/bin/unshare", ["-n", "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                     "--disable-background-networking", "--user-data-dir=\(scratch.path)/chromium",
                                     "--window-size=1200,1600", mode, "file://" + page])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: python), "python3 is not installed"))
    func theMixedReportParsesWithoutErrorsAndFetchesNothing() throws {
        let scratch = try TemporaryDirectory()
        let page = try htmlReport(["--all-ips", "-4", "--label", "vantage=<lab>", lab.https("mixed.test")], in: scratch)
        let parsed = try html5lib(page)
        #expect(parsed.errors == [], "html5lib: \(parsed.errors)")
        #expect(parsed.scripts == 0)
        #expect(parsed.references.allSatisfy { $0.hasPrefix("#") }, "\(parsed.references)")
        #expect(parsed.text.contains("vantage<lab>") || parsed.text.contains("vantage\n<lab>"), "\(parsed.text.prefix(600))")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.range(of: "FAIL")!.lowerBound < html.range(of: "section id=\"probe-1\"")!.lowerBound)
        let first = try #require(html.components(separatedBy: "<section id=\"probe-0\"").dropFirst().first)
        #expect(first.prefix(300).contains(lab.wrongIP), "the failing address comes first")
    }

    @Test(.enabled(if: hasChromium, "chromium is not installed"))
    func chromiumRendersTheReportWithEveryAddressAndReason() throws {
        let scratch = try TemporaryDirectory()
        let target = lab.https("mixed.test")
        let page = try htmlReport(["--all-ips", "-4", target], in: scratch)
        let json = try ipcurl(["check"] + lab.resolverArguments + ["--all-ips", "-4", "--format", "json", target])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let probes = try #require(object["probes"] as? [[String: Any]])
        let dom = try chromium(page, "--dump-dom", in: scratch)
        #expect(dom.status == 0, "\(dom.stderr)")
        let domFile = scratch.path + "/dom.html"
        try dom.stdout.write(toFile: domFile, atomically: true, encoding: .utf8)
        let text = try html5lib(domFile).text
        for probe in probes {
            #expect(text.contains(probe["address"] as? String ?? "?"), "\(probe)")
            if probe["passed"] as? Bool == false { #expect(text.contains(probe["reason"] as? String ?? "?"), "\(probe)") }
        }
        #expect(text.contains("PASS") && text.contains("FAIL"))

        let png = scratch.path + "/report.png"
        let shot = try chromium(page, "--screenshot=\(png)", in: scratch)
        #expect(shot.status == 0, "\(shot.stderr)")
        let colours = try run(Self.python, ["-c", Self.pngColours, png])
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(colours.stdout.utf8)) as? [String: Int], "\(colours.stderr)")
        #expect(counts["distinct"] ?? 0 > 16, "more than a blank page: \(counts)")
        #expect(counts["nonwhite"] ?? 0 > 20_000, "\(counts)")
        #expect(counts["vermillion"] ?? 0 > 100, "FAIL badges: \(counts)")
        #expect(counts["blue"] ?? 0 > 100, "PASS badges: \(counts)")
    }

    @Test(.enabled(if: hasChromium, "chromium is not installed"))
    func aScriptInAServersHeaderStaysText() throws {
        let scratch = try TemporaryDirectory()
        let targets = scratch.path + "/targets.yaml"
        try """
            targets:
              - name: cookie
                url: \(lab.https("a.test", "/api/set-cookie?x=%3Cscript%3Edocument.title%3D1%3C%2Fscript%3E"))
                expect: { headers: { Set-Cookie: "x=plain; Path=/" } }
            """.write(toFile: targets, atomically: true, encoding: .utf8)
        let page = try htmlReport(["--targets", targets], in: scratch)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("Set-Cookie: x=&lt;script&gt;document.title=1&lt;/script&gt;; Path=/"), "\(html)")
        let dom = try chromium(page, "--dump-dom", in: scratch)
        let domFile = scratch.path + "/dom.html"
        try dom.stdout.write(toFile: domFile, atomically: true, encoding: .utf8)
        let parsed = try html5lib(domFile)
        #expect(parsed.scripts == 0, "no script element in the rendered DOM")
        #expect(parsed.text.contains("Set-Cookie: x=<script>document.title=1</script>; Path=/"))
        #expect(dom.stdout.contains("<title>ipcurl check: FAIL"), "the title the script would have replaced")
    }

    @Test(.enabled(if: hasChromium, "chromium is not installed"))
    func samplesAndRetriesRenderAsDistributionsAndFlakyMarks() throws {
        let scratch = try TemporaryDirectory()
        let key = "html-flaky-\(UInt32.random(in: 0...UInt32.max))"
        let page = try htmlReport(["--all-ips", "-4", "--samples", "5", "--retries", "1", "--retry-interval", "0",
                                   "--expect-p95-ms", "5000", lab.https("mixed.test"),
                                   lab.https("a.test", "/api/flaky?key=\(key)&fails=1")], in: scratch)
        let parsed = try html5lib(page)
        #expect(parsed.errors == [], "html5lib: \(parsed.errors)")
        let dom = try chromium(page, "--dump-dom", in: scratch)
        #expect(dom.status == 0, "\(dom.stderr)")
        let domFile = scratch.path + "/dom.html"
        try dom.stdout.write(toFile: domFile, atomically: true, encoding: .utf8)
        let text = try html5lib(domFile).text
        #expect(text.components(separatedBy: "Latency over 5 samples").count - 1 == 3, "one per address: \(text.prefix(2000))")
        #expect(text.contains("p95 limit 5000 ms") && text.contains("FLAKY"), "\(text.prefix(2000))")
        #expect(text.contains("attempt 1 of sample 1: status: expected 2xx, got 503"), "\(text.prefix(3000))")
        let png = scratch.path + "/report.png"
        let shot = try chromium(page, "--screenshot=\(png)", in: scratch)
        #expect(shot.status == 0, "\(shot.stderr)")
        let colours = try run(Self.python, ["-c", Self.pngColours, png])
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(colours.stdout.utf8)) as? [String: Int], "\(colours.stderr)")
        #expect(counts["distinct"] ?? 0 > 16 && counts["nonwhite"] ?? 0 > 20_000, "more than a blank page: \(counts)")
    }

    /// Decodes an 8-bit RGB or RGBA PNG with zlib and counts its distinct colours, its pixels that are not white, and
    /// its pixels in the report's PASS blue (#0072B2) and FAIL vermillion (#D55E00).
    static let pngColours = #"""
        import sys, zlib, struct, json
        data = open(sys.argv[1], 'rb').read()
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR': width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
            if kind == b'IDAT': idat += body
            pos += 12 + length
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
        raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
        for y in range(height):
            f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                if f == 1: line[i] = (line[i] + a) & 255
                elif f == 2: line[i] = (line[i] + b) & 255
                elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(bytes(line)); prev = line
        pixels = [r[i:i + 3] for r in rows for i in range(0, stride, bpp)]
        print(json.dumps({'distinct': len(set(pixels)), 'nonwhite': sum(1 for p in pixels if p != b'\xff\xff\xff'),
                          'blue': pixels.count(b'\x00\x72\xb2'), 'vermillion': pixels.count(b'\xd5\x5e\x00')}))
        """#
}
