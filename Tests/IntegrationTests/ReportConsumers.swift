import Foundation

/// The real programs that read `ipcurl check`'s reports, as the consumer tests run them: Jenkins' JUnit schema
/// through xmlschema, Python scripts (junitparser, prometheus_client), Perl's TAP::Parser and promtool.
enum ReportConsumers {
    /// Jenkins' `junit-10.xsd` (`make setup` fetches it; `IPCURL_JUNIT_XSD` names another copy).
    static var junitSchema: String {
        ProcessInfo.processInfo.environment["IPCURL_JUNIT_XSD"] ?? Lab.repoRoot + "/.lab-cache/junit-10.xsd"
    }

    /// xmlschema's verdict on `xml` against ``junitSchema``: `valid\n` on stdout, else its error on stderr.
    static func validateJUnit(_ xml: String) throws -> Run {
        try python("import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.stdin.read()); print('valid')",
                   xml, [junitSchema])
    }

    /// `python3 -c script arguments…` reading `input` on stdin.
    static func python(_ script: String, _ input: String, _ arguments: [String] = []) throws -> Run {
        try run("/usr/bin/env", ["python3", "-c", script] + arguments, stdin: Data(input.utf8))
    }

    /// `perl -e script` reading `input` on stdin (TAP::Parser scripts).
    static func perl(_ script: String, _ input: String) throws -> Run {
        try run("/usr/bin/perl", ["-e", script], stdin: Data(input.utf8))
    }

    /// `promtool check metrics` on `text`.
    static func promtool(_ text: String) throws -> Run {
        try run("/usr/bin/promtool", ["check", "metrics"], stdin: Data(text.utf8))
    }
}
