// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ipcurl",
    products: [
        .executable(name: "ipcurl", targets: ["ipcurl"]),
        .library(name: "HTTPDNS", targets: ["HTTPDNS"]),
        .library(name: "CurlKit", targets: ["CurlKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "CurlKit", dependencies: ["CCurl"]),
        .target(name: "HTTPDNS", dependencies: ["CCrypto"]),
        .target(name: "IPCurlCore", dependencies: ["HTTPDNS", "CurlKit", "CYAML"]),
        .executableTarget(
            name: "ipcurl",
            dependencies: [
                "IPCurlCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "CurlKitTests", dependencies: ["CurlKit"]),
        .testTarget(name: "HTTPDNSTests", dependencies: ["HTTPDNS"]),
        .testTarget(name: "IPCurlCoreTests", dependencies: ["IPCurlCore", "HTTPDNS", "CurlKit"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ipcurl", "IPCurlCore", "CurlKit", "HTTPDNS"]),
    ]
)
