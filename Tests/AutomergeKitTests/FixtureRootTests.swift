import Foundation
import Testing
import TestSupport

/// The repository stands alone: every fixture the tests, `make fuzz` and `make bench` read is in
/// `Tests/Fixtures/`, inside the clone, and nothing resolves to a folder beside it.
struct FixtureRootTests {
    /// The real path of `path`, with every symbolic link resolved.
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    @Test("the fixture folders are inside the repository, even after resolving links", arguments: ["automerge", "stores", "fuzz", "verdicts"])
    func insideRepository(folder: String) throws {
        let directory = try Fixtures.directory(folder)
        let root = Self.resolved(Fixtures.packageRoot) + "/"
        #expect(Self.resolved(directory).hasPrefix(root), "\(directory) resolves outside \(root)")
    }

    @Test("every file the manifest names is in Tests/Fixtures/automerge")
    func manifestFilesPresent() throws {
        let scenarios = try FixtureScenario.all()
        #expect(scenarios.count > 10, "the manifest lists \(scenarios.count) scenarios")
        for scenario in scenarios {
            for file in scenario.files {
                #expect(try Fixtures.exists(file), "\(scenario.name): \(file) is missing")
            }
        }
        #expect(try Fixtures.exists("README.md"))
    }

    @Test("the sample store and its expected view are in Tests/Fixtures/stores")
    func storesPresent() throws {
        let stores = try Fixtures.directory("stores")
        for name in ["app-2024/tags.automerge", "app-2024.expected"] {
            #expect(FileManager.default.fileExists(atPath: stores + "/" + name), "\(name) is missing")
        }
    }
}
