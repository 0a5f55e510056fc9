import Foundation
import Testing

/// What an integration suite starts from, loaded once per suite instance: the running lab (or a failure that
/// says how to start it) and the Alibaba fixture's resolver arguments most suites use.
struct LabFixture: Sendable {
    let lab: Lab
    /// `--aliyun ACCOUNT --httpdns-server URL ...` for the lab's Alibaba fixture.
    let aliyun: [String]

    init() throws {
        lab = try Lab.current()
        aliyun = try Provider.aliyun.arguments(lab)
    }
}

/// A suite over the lab: its ``LabFixture`` and what it derives from it.
protocol LabSuite {
    var fixture: LabFixture { get }
}

extension LabSuite {
    var lab: Lab { fixture.lab }

    /// `ipcurl check` with the lab DoH server and CA.
    func check(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try ipcurl(["check"] + lab.resolverArguments + arguments, environment: environment)
    }

    /// A JSON report (`check --format json`) as a document.
    func jsonReport(_ result: Run) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    var aliyun: [String] { fixture.aliyun }
    /// The real curl CLI against the same lab, as the differential oracle.
    var oracle: CurlOracle { CurlOracle(lab: fixture.lab) }
}
