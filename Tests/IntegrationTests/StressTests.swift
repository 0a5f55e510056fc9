import Foundation
import Testing

/// `make stress` in small: concurrent ipcurl processes on one cache and one `-o` directory with random SIGKILL and
/// SIGSTOP (`Tests/Lab/stress.py`); the cache reads back correct, the files are whole, no temporary file remains.
@Suite struct StressTests {
    @Test func killedAndStoppedRunsLeaveACorrectCacheAndNoTemporaryFiles() throws {
        let lab = try Lab.current()
        let environment = ProcessInfo.processInfo.environment.merging(lab.values) { $1 }
            .merging(["STRESS_WORKERS": "4", "STRESS_RUNS": "25", "EXPORTER_SOAK_PROBES": "0"]) { $1 }  // the soak is make stress's alone
        let result = try run("/usr/bin/python3", [Lab.repoRoot + "/Tests/Lab/stress.py", ipcurlBinary()], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("stress: 4 processes x 25 runs") && result.stdout.hasSuffix("stress: passed\n"), "\(result.stdout)")
    }
}
