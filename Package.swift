// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ipcurl",
    products: [
        .executable(name: "ipcurl", targets: ["ipcurl"]),
        .executable(name: "ipcurl-exporter", targets: ["ipcurl-exporter"]),
        .library(name: "HTTPDNS", targets: ["HTTPDNS"]),
        .library(name: "CurlKit", targets: ["CurlKit"]),
        // For the fuzz targets of Fuzz/ (a package of their own), which reach the parsers through @_spi(Fuzzing).
        .library(name: "OptionTable", targets: ["OptionTable"]),
        .library(name: "IPCurlCore", targets: ["IPCurlCore"]),
        .library(name: "IPCurlCLI", targets: ["IPCurlCLI"]),
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
        // libc calls that need _GNU_SOURCE (renameat2); header only.
        .systemLibrary(name: "CSystem"),
        .systemLibrary(
            name: "CYAML",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The exporter's HTTP server: libmicrohttpd, its GnuTLS, and libcrypt's bcrypt.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev", "libgnutls28-dev", "libcrypt-dev"])]
        ),
        // ipcurl's one lock (a pthread mutex and condition variable on the heap), below every target that locks.
        .target(name: "Locking"),
        .target(name: "CurlKit", dependencies: ["CCurl", "Locking"]),
        // An HTTP(S) server over libmicrohttpd for the exporter's own executable; knows nothing of ipcurl, and the
        // ipcurl executable does not link it (a request loads no library of the server).
        .target(name: "ExporterHTTP", dependencies: ["CMicroHTTPD", "Locking"]),
        // curl's command-line grammar over tables of option rows; knows nothing of curl or HTTP.
        .target(name: "OptionTable"),
        .target(name: "HTTPDNS", dependencies: ["CCrypto"]),
        // libyaml is linked statically: only `check --targets` uses it, and a shared libyaml costs every start
        // about 0.35 M instructions of symbol lookups.
        .target(name: "IPCurlCore", dependencies: ["HTTPDNS", "CurlKit", "Locking", "CYAML", "CSystem", "CCrypto"],
                linkerSettings: [.linkedLibrary(":libyaml.a")]),
        // The subcommands and their option tables; the ipcurl executable is only its entry point, and the tables
        // also drive the man page and completions that ipcurl-docs writes at build time.
        .target(name: "IPCurlCLI", dependencies: ["IPCurlCore", "OptionTable"]),
        .executableTarget(name: "ipcurl", dependencies: ["IPCurlCLI"]),
        // `ipcurl exporter`'s server: the only program that links the HTTP server (ipcurl hands over to it).
        .executableTarget(name: "ipcurl-exporter", dependencies: ["IPCurlCLI", "ExporterHTTP"]),
        // Writes the man page and shell completions from the option tables (make docs, make install).
        .executableTarget(name: "ipcurl-docs", dependencies: ["IPCurlCLI"]),
        .testTarget(name: "CurlKitTests", dependencies: ["CurlKit"]),
        .testTarget(name: "OptionTableTests", dependencies: ["OptionTable"]),
        .testTarget(name: "HTTPDNSTests", dependencies: ["HTTPDNS"]),
        .testTarget(name: "ExporterHTTPTests", dependencies: ["ExporterHTTP"]),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "IPCurlCoreTests", dependencies: ["IPCurlCore", "HTTPDNS", "CurlKit", "Locking"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ipcurl", "ipcurl-exporter", "ipcurl-docs", "IPCurlCLI", "IPCurlCore", "CurlKit", "HTTPDNS"]),
    ]
)
