// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "minutafs",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "minutafs", targets: ["minutafs"]),
        .executable(name: "minutafs-bench", targets: ["minutafs-bench"]),
        .library(name: "AutomergeKit", targets: ["AutomergeKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // zlib from Debian (zlib1g-dev): raw DEFLATE decompression of columns and change chunks.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The Automerge engine: bytes in, bytes out. No file I/O, no Foundation.
        .target(
            name: "AutomergeKit",
            dependencies: ["CZlib", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .executableTarget(
            name: "minutafs",
            dependencies: ["AutomergeKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "minutafs-bench", dependencies: ["AutomergeKit"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "AutomergeKitTests", dependencies: ["AutomergeKit", "TestSupport"]),
        .testTarget(name: "MinutafsCommandTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
