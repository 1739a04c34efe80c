// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Diary",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "diary", targets: ["diary"]),
        .library(name: "DiaryCore", targets: ["DiaryCore"]),
        .library(name: "DiaryStore", targets: ["DiaryStore"]),
        .library(name: "DiaryServer", targets: ["DiaryServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // The domain: entries and accounts, their rules, the storage protocols, formats.
        // Foundation, and SHA-256 from swift-crypto (CryptoKit's API on Apple platforms).
        .target(name: "DiaryCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // The SQLite backend (through GRDB): DiaryCore's storage protocols in one file.
        .target(
            name: "DiaryStore",
            dependencies: [
                "DiaryCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface, for the lookups every request makes (`SingleRow`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL backend (postgres-nio's pooled client, no ORM): the same protocols, for
        // several `diary serve` instances in front of one database.
        .target(
            name: "DiaryPostgres",
            dependencies: [
                "DiaryCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one place that knows every backend: the configured database becomes a `Storage`.
        .target(
            name: "DiaryBackends",
            dependencies: ["DiaryCore", "DiaryStore", "DiaryPostgres", .product(name: "Logging", package: "swift-log")]
        ),
        // Weather providers, over real HTTP with timeouts and size limits.
        .target(
            name: "DiaryWeather",
            dependencies: [
                "DiaryCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Importing a file of entries, from any format Diary reads, ZIPs with photos included:
        // one import for `diary import` and the web app's settings (`POST /api/v1/import`).
        .target(
            name: "DiaryArchives",
            dependencies: ["DiaryCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // The system's Brotli encoder: the web app's files compressed once at start, a sixth
        // smaller than with gzip (bench: the first visit's budget).
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
        // Passwords hashed with bcrypt on NIO's thread pool (DiaryCore's `PasswordHasher`): a target
        // of its own, so what needs only the hasher (the store's tests, the CLI's account commands)
        // does not depend on the web server.
        .target(
            name: "DiaryPasswords",
            dependencies: [
                "DiaryCore",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The web app and its JSON API.
        .target(
            name: "DiaryServer",
            dependencies: [
                "DiaryCore",
                "DiaryArchives",
                "DiaryPasswords",
                "CBrotli",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [
                .copy("Resources/Public"), .copy("Resources/openapi.yaml"), .copy("Resources/sample.json"),
            ]
        ),
        // The `diary` command: a journal on the command line, and `diary serve`.
        .executableTarget(
            name: "diary",
            dependencies: [
                "DiaryCore",
                "DiaryArchives",
                "DiaryBackends",
                "DiaryPasswords",
                "DiaryServer",
                "DiaryWeather",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // To tell a port in use (EADDRINUSE) from other failures to listen.
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // A bare Hummingbird route answering a constant: the benchmarks' physical limit.
        .executableTarget(
            name: "bench-baseline",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/BenchBaseline"
        ),
        .testTarget(name: "DiaryCoreTests", dependencies: ["DiaryCore"]),
        .testTarget(
            name: "DiaryStoreTests",
            dependencies: [
                "DiaryCore", "DiaryStore", "DiaryBackends", "DiaryPostgres", "DiaryPasswords",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DiaryServerTests",
            dependencies: [
                "DiaryCore", "DiaryStore", "DiaryPasswords", "DiaryServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(name: "DiaryCLITests", dependencies: ["DiaryCore", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "DiaryWeatherTests",
            dependencies: [
                "DiaryCore", "DiaryWeather", "DiaryStore", "DiaryPasswords", "DiaryServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The providers' documented answers, read from the source tree by the fake server.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
