import Foundation
import Testing
import TestSupport

/// A remount of an unchanged store reads every record from the view cache in `$XDG_CACHE_HOME`,
/// decoding no document, and shows exactly what the first mount showed.
struct ViewCacheMountTests {
    @Test("a remount serves the same bytes from the cache in XDG_CACHE_HOME, never from the synced folder, and decodes no document")
    func remountFromCache() throws {
        try withTemporaryDirectory { folder in
            let environment = ["XDG_CACHE_HOME": folder + "/cache"]
            let first = try MountedStore(in: folder, environment: environment)
            let storeFilesBefore = try FileManager.default.subpathsOfDirectory(atPath: first.store).sorted()
            let read = "cd '\(first.mountPoint)' && find records -name '*.json' | sort | xargs cat | sha256sum && find records -name '*.json' | sort | sha256sum"
            let firstRead = try Shell.run(read)
            #expect(firstRead.status == 0)
            #expect(first.unmount() == 0)
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache/minutafs/views").filter { $0.hasSuffix(".view") }
            let documents = storeFilesBefore.filter { $0.hasPrefix("records/") && $0.hasSuffix(".automerge") }
            #expect(entries.count == documents.count, "\(entries) for \(documents)")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: first.store).sorted() == storeFilesBefore)

            let second = try MountedStore(in: folder, copyingSample: false, environment: environment)
            let secondRead = try Shell.run(read)
            #expect(secondRead.output == firstRead.output)
            #expect(second.statusCount("documents loaded") == 0)
            #expect(second.unmount() == 0)
        }
    }
}
