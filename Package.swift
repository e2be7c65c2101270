// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "HeatmapKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "HeatmapKit", targets: ["HeatmapKit"]),
        .library(name: "HeatmapMapKit", targets: ["HeatmapMapKit"]),
        .library(name: "HeatmapTiles", targets: ["HeatmapTiles"]),
        .library(name: "HeatmapPostgres", targets: ["HeatmapPostgres"]),
        .executable(name: "heatmap", targets: ["heatmap"]),
        .executable(name: "heatmap-bench", targets: ["heatmap-bench"]),
    ],
    targets: [
        // zlib as every Apple SDK has it: `link "z"` in the module map, no pkg-config (a pkg-config
        // provider would put macOS library paths into iOS builds). HeatmapKit's only C library.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libpng: the tests' reference decoder only.
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["pkgconf", "libpng"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // Homebrew's libpq is keg-only: README's Install gives the PKG_CONFIG_PATH it needs.
        .systemLibrary(
            name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["pkgconf", "libpq"])]),
        // The Linux event loop's C calls; the whole body sits inside `#ifdef __linux__` (empty on
        // Apple platforms), so no dependency on it needs a platform condition.
        .target(name: "CEpoll"),
        // WebP tiles, for the server and the command only: the HeatmapKit product needs no libwebp.
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"]), .brew(["pkgconf", "webp"])]),
        // libcurl for URL layers' fetches in the command and server on Linux (URLTileLayer's URLSession elsewhere).
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(
            name: "HeatmapCore",
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(name: "HeatmapKit", dependencies: ["HeatmapCore", "CZlib"]),
        // MapKit's overlay of a TileLayer: its MapKit file compiles only where MapKit exists.
        .target(name: "HeatmapMapKit", dependencies: ["HeatmapKit"]),
        .target(
            name: "HeatmapTiles",
            dependencies: [
                "HeatmapKit", "CSQLite", "CZlib", .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ]),
        .target(name: "HeatmapPostgres", dependencies: ["HeatmapKit", "CPostgres"]),
        .target(name: "HeatmapWebP", dependencies: ["HeatmapKit", "CWebP"]),
        .target(
            name: "HeatmapServer",
            dependencies: [
                "HeatmapKit", "HeatmapTiles", "HeatmapWebP", "CEpoll",
            ]
        ),
        // The glue of a served table: HeatmapServer's layer following HeatmapPostgres's change count.
        .target(name: "HeatmapPostgresServer", dependencies: ["HeatmapKit", "HeatmapPostgres", "HeatmapServer"]),
        .executableTarget(
            name: "heatmap",
            dependencies: [
                "HeatmapKit", "HeatmapTiles", "HeatmapServer", "HeatmapPostgres", "HeatmapPostgresServer",
                "HeatmapWebP",
            ]),
        .executableTarget(
            name: "heatmap-bench",
            dependencies: ["HeatmapKit", "HeatmapTiles", "HeatmapPostgres", "HeatmapWebP", "CPNG"]),
        // Helpers of the test targets only (running the built command, an HTTP upstream, ports).
        .target(name: "HeatmapTestSupport", dependencies: ["HeatmapKit"], path: "Tests/HeatmapTestSupport"),
        .testTarget(name: "HeatmapCoreTests", dependencies: ["HeatmapCore"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "HeatmapKitTests",
            dependencies: [
                "HeatmapKit", "HeatmapMapKit", "CPNG", "CZlib", "HeatmapTestSupport", "HeatmapWebP", "CWebP",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HeatmapTilesTests",
            dependencies: ["HeatmapTiles", "HeatmapKit", "CSQLite", "HeatmapTestSupport", "HeatmapWebP"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "HeatmapServerTests",
            dependencies: ["HeatmapServer", "HeatmapKit", "HeatmapTiles", "HeatmapTestSupport", "HeatmapWebP"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "HeatmapPostgresTests",
            dependencies: [
                "HeatmapPostgres", "HeatmapKit", "HeatmapServer", "HeatmapPostgresServer", "HeatmapTiles",
                "HeatmapTestSupport",
            ],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
