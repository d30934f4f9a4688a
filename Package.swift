// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "minutafs",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "minutafs", targets: ["minutafs"]),
        .executable(name: "minutafs-bench", targets: ["minutafs-bench"]),
        // A replayer for crash files; `make fuzz` builds it with libFuzzer (see Sources/minutafs-fuzz).
        .executable(name: "minutafs-fuzz", targets: ["minutafs-fuzz"]),
        .library(name: "AutomergeKit", targets: ["AutomergeKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // zlib from Debian (zlib1g-dev): raw DEFLATE decompression of columns and change chunks.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The Automerge engine: bytes in, bytes out. No file I/O, no Foundation.
        .target(
            name: "AutomergeKit",
            dependencies: ["CZlib", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The Minuta store: records and tags over the documents, the JSON view, edits, the backing
        // folder and conflict copies. Knows nothing of FUSE.
        .target(
            name: "MinutaStore",
            dependencies: [
                "AutomergeKit", "CLinuxCalls", "FileTreeInterface", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Moving a legacy JSON store into documents and back (`minutafs migrate`, `export`): only the
        // command line uses it.
        .target(name: "MinutaMigration", dependencies: ["MinutaStore", "AutomergeKit"]),
        // Tracking time from the terminal (`minutafs start`, `stop`, `now`): through a mount or a store.
        .target(name: "MinutaTimer", dependencies: ["MinutaStore", .product(name: "SystemPackage", package: "swift-system")]),
        // The demo store `minutafs demo` and `make demo` write.
        .target(name: "MinutaDemo", dependencies: ["MinutaStore", "AutomergeKit"]),
        // Linux system calls Swift's Glibc module lacks (renameat2, for swapping a document in).
        .target(name: "CLinuxCalls"),
        // libfuse3 from Debian (libfuse3-dev): the low-level API the mount is served through.
        .systemLibrary(name: "CFuse3", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
        // The seam between the store and the mount: the FileTree protocol the mount serves and the store
        // implements, its value types and errors (which carry the Errno the program gets), and the
        // EventSignal every background thread of a mount stops on. Depends on nothing of either side.
        .target(name: "FileTreeInterface", dependencies: ["CLinuxCalls", .product(name: "SystemPackage", package: "swift-system")]),
        // The FUSE adapter: serves any FileTree through the kernel. Knows nothing of Automerge or Minuta.
        .target(
            name: "MinutaFS",
            dependencies: ["CFuse3", "CLinuxCalls", "FileTreeInterface", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .executableTarget(
            name: "minutafs",
            dependencies: [
                "AutomergeKit", "MinutaStore", "MinutaMigration", "MinutaDemo", "MinutaTimer", "MinutaFS", "FileTreeInterface", "CLinuxCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "minutafs-bench",
            dependencies: [
                "AutomergeKit", "MinutaStore", "MinutaDemo", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(name: "minutafs-fuzz", dependencies: ["AutomergeKit"]),
        .target(name: "TestSupport", dependencies: ["AutomergeKit"], path: "Tests/TestSupport"),
        .testTarget(name: "AutomergeKitTests", dependencies: ["AutomergeKit", "TestSupport"]),
        .testTarget(name: "MinutafsCommandTests", dependencies: ["TestSupport"]),
        .testTarget(name: "MinutaFSTests", dependencies: ["MinutaFS", "FileTreeInterface", "MinutaTimer", "TestSupport"]),
        // End-to-end: the built binary mounts real stores and real programs use them.
        .testTarget(
            name: "MountTests",
            dependencies: [
                "MinutaStore", "AutomergeKit", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(name: "MinutaTimerTests", dependencies: ["MinutaTimer", "MinutaStore", "TestSupport"]),
        .testTarget(
            name: "MinutaStoreTests",
            dependencies: ["MinutaStore", "MinutaMigration", "AutomergeKit", "FileTreeInterface", "TestSupport", .product(name: "SystemPackage", package: "swift-system")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
