/// `--format junit`: JUnit XML as Jenkins' `junit-10.xsd` describes it. One `<testsuite>` per target name (in the
/// order targets first appear) with the labels as `<properties>`, one `<testcase>` per probe (`classname`
/// `ipcurl.check.<target>` with the target's dots as `_`, `name` the address or, unresolved, the URL), and for a
/// failed probe one `<failure>` whose `type` is the first failed assertion or `curl_error_<exit code>`. Every
/// testcase's `<system-out>` carries its measurements. With `--compare-system`, a testsuite
/// `ipcurl.check.system-dns` without tests holds the answers.
enum JUnitReport {
    static func render(_ report: CheckReport) -> String {
        let suites = report.probesByName
        let started = ReportFormat.timestamp(report.startedAt)
        let properties = propertiesElement(report.distinctLabels.map { ($0.name, $0.value) })
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"ipcurl check\" tests=\"\(report.probes.count)\" failures=\"\(report.failedCount)\""
            + " errors=\"0\" time=\"\(time(report.durationMicroseconds))\">\n"
        for suite in suites {
            let failed = suite.probes.count { !$0.passed }
            out += "  <testsuite name=\(XMLText.attribute(suite.name)) tests=\"\(suite.probes.count)\" failures=\"\(failed)\""
                + " errors=\"0\" skipped=\"0\" time=\"\(time(suite.probes.reduce(0) { $0 + $1.timings.total }))\""
                + " timestamp=\"\(started)\">\n" + properties
            for probe in suite.probes { out += testcase(probe, now: report.startedAt) }
            out += "  </testsuite>\n"
        }
        if !report.comparisons.isEmpty { out += comparisonSuite(report.comparisons, timestamp: started) }
        return out + "</testsuites>\n"
    }

    private static func testcase(_ probe: ProbeResult, now: Int64) -> String {
        // CI servers split a classname at its dots into package and class: a name's own dots (a URL's host) would
        // scatter one target over several packages.
        let className = "ipcurl.check." + String(probe.target.name.map { $0 == "." ? "_" : $0 })
        var out = "    <testcase classname=" + XMLText.attribute(className)
            + " name=" + XMLText.attribute(probe.addressForm ?? probe.target.url)
            + " time=\"\(time(probe.timings.total))\">\n"
        if let type = probe.failureType {
            var body = probe.failures.map { "\($0.assertion): expected \($0.expected), got \($0.actual)\n" }.joined()
            if let error = probe.error { body = "curl exit \(error.exitCode): \(error.message)\n" + body }
            out += "      <failure message=" + XMLText.attribute(probe.reason) + " type=" + XMLText.attribute(type) + ">"
                + XMLText.text(body + probe.title + "\n") + "</failure>\n"
        }
        return out + "      <system-out>" + XMLText.text(ProbeMeasurements.lines(probe, now: now).joined(separator: "\n") + "\n")
            + "</system-out>\n    </testcase>\n"
    }

    private static func comparisonSuite(_ comparisons: [NameComparison], timestamp: String) -> String {
        var properties: [(String, String)] = []
        for comparison in comparisons {
            properties.append(("httpdns." + comparison.host, comparison.httpdns.map(\.description).joined(separator: ",")))
            properties.append(("system." + comparison.host,
                               comparison.systemError.map { "error: " + $0 } ?? comparison.system.map(\.description).joined(separator: ",")))
            properties.append(("differs." + comparison.host, String(comparison.differs)))
        }
        let text = comparisons.map { "\($0.host): \($0.differs ? "differs" : "same")" }.joined(separator: "\n")
        return "  <testsuite name=\"ipcurl.check.system-dns\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\""
            + " timestamp=\"\(timestamp)\">\n" + propertiesElement(properties)
            + "    <system-out>" + XMLText.text(text + "\n") + "</system-out>\n  </testsuite>\n"
    }

    private static func propertiesElement(_ properties: [(String, String)]) -> String {
        guard !properties.isEmpty else { return "" }
        return "    <properties>\n" + properties.map {
            "      <property name=" + XMLText.attribute($0.0) + " value=" + XMLText.attribute($0.1) + "/>\n"
        }.joined() + "    </properties>\n"
    }

    /// Seconds with three decimals, the xsd's `SUREFIRE_TIME`.
    private static func time(_ micro: Int64) -> String { ReportFormat.fixed(max(micro, 0), unit: 1_000_000, digits: 3) }
}

/// XML 1.0 escaping: characters XML cannot carry (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) are
/// dropped, markup characters become entities, and in attributes tab, LF and CR become character references so
/// they survive attribute-value normalisation.
enum XMLText {
    /// `"value"`, quotes included.
    static func attribute(_ value: String) -> String { "\"" + escape(value, inAttribute: true) + "\"" }

    /// Element content.
    static func text(_ value: String) -> String { escape(value, inAttribute: false) }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        MarkupText.escaped(value) { scalar in
            switch scalar {
            case "\"" where inAttribute: "&quot;"
            case "\t" where inAttribute: "&#9;"
            case "\n" where inAttribute: "&#10;"
            case "\r": "&#13;"
            case "\t", "\n": nil
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: ""
            default: nil
            }
        }
    }
}
