// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tick",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tick", targets: ["tick"]),
        .library(name: "TickKit", targets: ["TickKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CInotifyTools",
            pkgConfig: nil,
            providers: [.apt(["libinotifytools0-dev"])]
        ),
        .systemLibrary(
            name: "CNcursesw",
            pkgConfig: nil,
            providers: [.apt(["libncurses-dev"])]
        ),
        // The system's SQLite, for the index (linked statically by `make release`).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: nil,
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // System calls Swift's Glibc module does not declare (renameat2).
        .target(name: "CTickSys"),
        .target(
            name: "TickKit",
            dependencies: [
                "CInotifyTools",
                "CSQLite",
                "CTickSys",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        .executableTarget(
            name: "tick",
            dependencies: [
                "TickKit",
                "CNcursesw",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        .testTarget(
            name: "TickKitTests",
            dependencies: ["TickKit"],
            resources: [.copy("Golden")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TickE2ETests",
            dependencies: ["tick", "TickKit"],
            // ArgumentRewriteTests imports the executable; its dependencies'
            // extensions (TOMLKit's literals) must not leak into the other files.
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
