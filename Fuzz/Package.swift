// swift-tools-version:6.0
// libFuzzer targets for ipcurl's parsers, one executable each; `make fuzz` builds them with
// -sanitize=fuzzer,address and runs them on the seeds in Corpus/. A package of its own, so the main package's
// `swift build --build-tests` never sees them.
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, whatever the checkout is called.
let ipcurl = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// Each fuzz target and the main package's libraries it reaches.
let fuzzTargets: [(name: String, libraries: [String])] = [
    ("FuzzDNSMessage", ["HTTPDNS"]),
    ("FuzzDoHJSON", ["HTTPDNS"]),
    ("FuzzAliyunSingle", ["HTTPDNS"]),
    ("FuzzAliyunBatch", ["HTTPDNS"]),
    ("FuzzAliyunV2", ["HTTPDNS"]),
    ("FuzzDNSPodPlain", ["HTTPDNS"]),
    ("FuzzDNSPodAES", ["HTTPDNS"]),
    ("FuzzDNSPodDES", ["HTTPDNS"]),
    ("FuzzResolveEntry", ["HTTPDNS"]),
    ("FuzzResolverCommandLine", ["HTTPDNS"]),
    ("FuzzCacheRecord", ["HTTPDNS"]),
    ("FuzzWriteOut", ["IPCurlCore"]),
    ("FuzzTargetsFile", ["IPCurlCore"]),
    ("FuzzExporterConfig", ["IPCurlCore"]),
    ("FuzzConfigFile", ["OptionTable", "IPCurlCLI"]),
    ("FuzzOptionParser", ["IPCurlCLI"]),
]

let package = Package(
    name: "ipcurl-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // LLVMFuzzerRunDriver's declaration (libFuzzer itself comes with -sanitize=fuzzer).
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "HTTPDNS", package: ipcurl)]),
    ] + fuzzTargets.map { target in
        // SwiftPM names an executable's entry point `<Target>_main` and links `main` to it; parsed as a library, the
        // file has no implicit one, and its `@_cdecl("<Target>_main")` function hands the process to libFuzzer.
        .executableTarget(name: target.name,
                          dependencies: ["FuzzSupport"] + target.libraries.map { .product(name: $0, package: ipcurl) },
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])],
                          // gold fails on ASan-instrumented Swift objects ("internal error in format_file_lineno").
                          linkerSettings: [.unsafeFlags(["-use-ld=lld"])])
    }
)
