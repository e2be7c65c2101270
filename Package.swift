// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "HeatmapKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "HeatmapKit", targets: ["HeatmapKit"]),
        .library(name: "HeatmapPostgres", targets: ["HeatmapPostgres"]),
        .executable(name: "heatmap", targets: ["heatmap"]),
        .executable(name: "heatmap-bench", targets: ["heatmap-bench"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(
            name: "HeatmapCore",
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(name: "HeatmapKit", dependencies: ["HeatmapCore", "CZlib", "CPNG"]),
        .target(name: "HeatmapPostgres", dependencies: ["HeatmapKit", "CPostgres"]),
        .target(name: "HeatmapServer", dependencies: ["HeatmapKit"]),
        .executableTarget(name: "heatmap", dependencies: ["HeatmapKit", "HeatmapServer", "HeatmapPostgres"]),
        .executableTarget(name: "heatmap-bench", dependencies: ["HeatmapKit", "HeatmapPostgres"]),
        .testTarget(name: "HeatmapCoreTests", dependencies: ["HeatmapCore"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "HeatmapKitTests",
            dependencies: ["HeatmapKit", "CPNG", "CZlib"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HeatmapServerTests", dependencies: ["HeatmapServer", "HeatmapKit"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "HeatmapPostgresTests", dependencies: ["HeatmapPostgres", "HeatmapKit", "HeatmapServer"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
