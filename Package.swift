// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "concierge",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "concierge", targets: ["concierge"]),
        .library(name: "ConciergeModels", targets: ["ConciergeModels"]),
        .library(name: "ConciergeKit", targets: ["ConciergeKit"]),
        .library(name: "ConciergeServer", targets: ["ConciergeServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // For its vendored SQLite amalgamation (the `VaporCSQLite` module, symbols prefixed
        // `sqlite_nio_`): `swift run concierge serve` then needs no system SQLite headers.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // Operations (issue 16): metrics, traces and configuration from kept libraries. OTLP over
        // HTTP only: the gRPC exporter's dependencies would add minutes to every fresh build.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(
            url: "https://github.com/apple/swift-configuration.git", from: "1.4.0",
            traits: [.defaults, "CommandLineArguments"]),
        // `swift package generate-documentation --target ConciergeKit` (docs/sdk): a plugin, no
        // target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // gzip for answers (ResponseCompressionMiddleware), over the system's zlib.
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        // Wire types shared by the server and the SDK: Foundation only.
        .target(name: "ConciergeModels", swiftSettings: strict),
        // The client SDK for iOS/macOS apps and the CLI: Foundation (and FoundationNetworking) only.
        .target(name: "ConciergeKit", dependencies: ["ConciergeModels"], swiftSettings: strict),
        // What the CLI's client commands do and print, through ConciergeKit only.
        .target(name: "ConciergeCLI", dependencies: ["ConciergeKit"], swiftSettings: strict),
        // Domain rules: no HTTP, no SQL; time and randomness are injected.
        .target(
            name: "ConciergeCore",
            dependencies: [
                "ConciergeModels",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ConciergeStore",
            dependencies: [
                "ConciergeCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Only for VaporCSQLite, SQLite itself, which the store calls directly.
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ConciergeProviders",
            dependencies: [
                "ConciergeCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [.copy("Resources/gazetteer.tsv"), .copy("Resources/Templates")],
            swiftSettings: strict
        ),
        .target(
            name: "ConciergeServer",
            dependencies: [
                "ConciergeModels", "ConciergeCore", "ConciergeStore", "ConciergeProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The HTTP/1.1 channel, to answer requests its parser refuses (MalformedRequestAnswers).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [
                .copy("Resources/openapi.yaml"), .copy("Resources/openapi-rides.yaml"),
                .copy("Resources/openapi-stays.yaml"),
                .copy("Resources/openapi-events.yaml"), .copy("Resources/openapi-commute.yaml"),
                // The web front end's templates, words (en, de) and assets, one folder per vertical.
                .copy("Resources/Web"),
            ],
            swiftSettings: strict
        ),
        // Benchmarks behind `concierge bench`.
        .target(
            name: "ConciergeBenchmarks",
            dependencies: [
                "ConciergeCore", "ConciergeModels", "ConciergeProviders",
                // The crash drill reads the database it ran on to check its invariants.
                "ConciergeStore", .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "concierge",
            dependencies: [
                "ConciergeServer", "ConciergeBenchmarks", "ConciergeCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ConciergeTestSupport",
            dependencies: ["ConciergeStore", "ConciergeCore", .product(name: "Logging", package: "swift-log")],
            path: "Tests/ConciergeTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ConciergeCoreTests", dependencies: ["ConciergeCore", "ConciergeModels", "ConciergeTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ConciergeKitTests",
            dependencies: [
                "ConciergeKit", "ConciergeCLI", "ConciergeServer", "ConciergeTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ConciergeStoreTests",
            dependencies: ["ConciergeStore", "ConciergeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ConciergeProvidersTests",
            dependencies: [
                "ConciergeProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        // Suites that start real `concierge serve` processes (the binary `swift test` builds).
        .testTarget(
            name: "ConciergeReliabilityTests",
            dependencies: ["ConciergeBenchmarks", "ConciergeModels", "ConciergeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ConciergeServerTests",
            dependencies: [
                // ConciergeBenchmarks for SpawnedProcess (a child `concierge serve` without Foundation's Process).
                "ConciergeServer", "ConciergeTestSupport", "ConciergeBenchmarks",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                // To read gzip answers back (ResponseCompressionHTTPTests).
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
