import AutomergeKit
import Foundation
@testable import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Month views kept between mounts in the cache folder: a second store over the same
/// folder lists and reads a month without decoding its document, and whatever is wrong with the cache
/// (damaged, stale, another zone, too big) costs a render, never wrong output.
struct MonthViewCacheTests {
    static let months = (1...6).compactMap { Month(year: 2024, month: $0) }

    /// Every month's files as a store without any cache renders them: the expected output.
    func rendered(_ path: String, zone: StoreTimeZone = .utc) throws -> [[RecordFile]] {
        let store = try Store(folder: FilePath(path), timeZone: zone)
        return try Self.months.map { try store.recordFiles(in: $0) }
    }

    /// The record file with a comment added.
    static func commented(_ file: RecordFile, _ comment: String) -> String {
        String(decoding: file.contents, as: UTF8.self).replacingOccurrences(of: "\"images\"", with: "\"comment\": \"\(comment)\",\n  \"images\"")
    }

    func decodedMonths(_ store: Store) -> Int {
        store.replicas.state.withLock { $0.months.loadedCount }
    }

    @Test("a second store over the same folder shows the same files without decoding a document")
    func remountRendersNothing() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let cache = folder + "/cache"
            let expected = try rendered(path)
            let first = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            #expect(try Self.months.map { try first.recordFiles(in: $0) } == expected)
            let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/views").filter { $0.hasSuffix(".view") }
            #expect(entries.count == Self.months.count)

            let second = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            #expect(try Self.months.map { try second.recordFiles(in: $0) } == expected)
            #expect(decodedMonths(second) == 0)
            // Reading the conflicts and editing still work: the document is decoded when needed.
            _ = try second.conflictReport()
            let month = Self.months[1]
            let file = try #require(try second.recordFiles(in: month).first { !String(decoding: $0.contents, as: UTF8.self).contains("\"comment\"") })
            let edited = Self.commented(file, "cached")
            #expect(edited != String(decoding: file.contents, as: UTF8.self))
            _ = try second.writeRecordFile(Array(edited.utf8), named: file.name, in: month)
            let third = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            #expect(try third.recordFiles(in: month) == (try rendered(path)[1]))
            #expect(try third.recordFile(named: file.name, in: month)?.contents == Array(edited.utf8))
        }
    }

    @Test("a damaged, cut or foreign entry is a miss, and a document changed by another device is rendered again")
    func damagedAndStaleEntries() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let cache = folder + "/cache"
            let first = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            for month in Self.months { _ = try first.recordFiles(in: month) }
            let views = cache + "/views"
            let names = try FileManager.default.contentsOfDirectory(atPath: views).filter { $0.hasSuffix(".view") }.sorted()
            // One flipped byte in each entry's records, one entry cut short, one swapped for another's.
            for (index, name) in names.enumerated() {
                var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: views + "/" + name)))
                switch index % 3 {
                case 0: bytes[bytes.count - 10] ^= 0x20
                case 1: bytes.removeLast(bytes.count / 3)
                default: bytes = try Array(Data(contentsOf: URL(fileURLWithPath: views + "/" + names[(index + 1) % names.count])))
                }
                try Data(bytes).write(to: URL(fileURLWithPath: views + "/" + name))
            }
            // Another device's edit of March, delivered while no mount ran.
            let phone = try Store(folder: FilePath(path), timeZone: .utc)
            let march = Self.months[2]
            let file = try #require(try phone.recordFiles(in: march).first { !String(decoding: $0.contents, as: UTF8.self).contains("\"comment\"") })
            let edited = Self.commented(file, "phone")
            _ = try phone.writeRecordFile(Array(edited.utf8), named: file.name, in: march)

            let expected = try rendered(path)
            let second = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            #expect(try Self.months.map { try second.recordFiles(in: $0) } == expected)
            #expect(try second.recordFile(named: file.name, in: march)?.contents == Array(edited.utf8))
            // The bad entries were replaced by good ones: a third store decodes nothing.
            let third = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            #expect(try Self.months.map { try third.recordFiles(in: $0) } == expected)
            #expect(decodedMonths(third) == 0)
        }
    }

    @Test("a month served from the cache takes another device's version of its file like any other month")
    func replacedWhileServedFromCache() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let cache = folder + "/cache"
            let march = Self.months[2]
            _ = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache)).recordFiles(in: march)
            let mounted = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            let file = try #require(try mounted.recordFiles(in: march).first { !String(decoding: $0.contents, as: UTF8.self).contains("\"comment\"") })
            #expect(decodedMonths(mounted) == 0)
            // Another device's version of March arrives (written through another store over the folder).
            let edited = Self.commented(file, "from the phone")
            _ = try Store(folder: FilePath(path), timeZone: .utc).writeRecordFile(Array(edited.utf8), named: file.name, in: march)
            #expect(try mounted.synchronizeDocuments().contains(march.documentPath))
            #expect(try mounted.recordFile(named: file.name, in: march)?.contents == Array(edited.utf8))
            // And this store's own edit of it is saved on top, nothing of the phone's lost.
            let both = String(decoding: try #require(try mounted.recordFile(named: file.name, in: march)).contents, as: UTF8.self)
                .replacingOccurrences(of: "from the phone", with: "from the phone, then the desktop")
            _ = try mounted.writeRecordFile(Array(both.utf8), named: file.name, in: march)
            #expect(try Store(folder: FilePath(path), timeZone: .utc).recordFile(named: file.name, in: march)?.contents == Array(both.utf8))
        }
    }

    @Test("a store in another time zone does not take the first zone's names")
    func otherZone() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let cache = folder + "/cache"
            let utc = try Store(folder: FilePath(path), timeZone: .utc, cacheDirectory: FilePath(cache))
            for month in Self.months { _ = try utc.recordFiles(in: month) }
            let zone = try #require(StoreTimeZone(identifier: "Pacific/Auckland"))
            let auckland = try Store(folder: FilePath(path), timeZone: zone, cacheDirectory: FilePath(cache))
            let names = try Self.months.map { try auckland.recordFiles(in: $0).map(\.name) }
            #expect(names == (try rendered(path, zone: zone).map { $0.map(\.name) }))
            #expect(names != (try rendered(path).map { $0.map(\.name) }))
        }
    }

    @Test("the folder is the user's alone, and temporary files a killed process left go after an hour")
    func privateAndClean() throws {
        try withTemporaryDirectory { folder in
            let cache = try MonthViewCache(cacheDirectory: folder, timeZone: "UTC", trimInterval: 0)
            let mode = (try FileManager.default.attributesOfItem(atPath: folder + "/views")[.posixPermissions] as? Int) ?? -1
            #expect(mode & 0o077 == 0, "mode \(String(mode, radix: 8))")
            let old = folder + "/views/.abc.view.minutafs-1f.tmp", fresh = folder + "/views/.def.view.minutafs-2e.tmp"
            for path in [old, fresh] { #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]))) }
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: old)
            cache.store(MonthViewCache.Entry(records: [], hasConflicts: false, heads: []), for: cache.key(ofDocument: [1]))
            #expect(!FileManager.default.fileExists(atPath: old))
            #expect(FileManager.default.fileExists(atPath: fresh))
            #expect(cache.entry(for: cache.key(ofDocument: [1])) == MonthViewCache.Entry(records: [], hasConflicts: false, heads: []))
        }
    }

    @Test("the folder stays under its size: the entries used longest ago go first")
    func sizeBound() throws {
        try withTemporaryDirectory { folder in
            let cache = try MonthViewCache(cacheDirectory: folder, timeZone: "UTC", sizeLimit: 10_000, trimInterval: 0)
            let record = MonthViewCache.Entry.Record(id: "A", name: "a.json", startTime: 1, contents: [UInt8](repeating: 65, count: 3_000))
            let entry = MonthViewCache.Entry(records: [record], hasConflicts: false, heads: [])
            let keys = (0..<8).map { cache.key(ofDocument: [UInt8($0)]) }
            for (index, key) in keys.enumerated() {
                cache.store(entry, for: key)
                if index == 0 { continue }
                // The first entry is read after every write: it is the most recently used one.
                #expect(cache.entry(for: keys[0]) == entry)
            }
            let sizes = try FileManager.default.contentsOfDirectory(atPath: folder + "/views").map {
                (try FileManager.default.attributesOfItem(atPath: folder + "/views/" + $0)[.size] as? Int) ?? 0
            }
            #expect(sizes.reduce(0, +) <= 10_000)
            #expect(cache.entry(for: keys[0]) == entry)
            #expect(cache.entry(for: keys[1]) == nil)
        }
    }
}

/// Months loaded ahead of a reader when their year is listed.
struct MonthPrefetchTests {
    @Test("listing a year renders its months in the background, exactly as reading them would")
    func yearListingPrefetches() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let expected = try Store(folder: FilePath(path), timeZone: .utc).months().map { try Store(folder: FilePath(path), timeZone: .utc).recordFiles(in: $0) }
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let tree = StoreView(store: store)
            #expect(store.replicas.state.withLock { $0.months.loadedCount + $0.months.parkedMonths.count } == 0)
            _ = try tree.entries(inDirectory: "/records/2024")
            tree.prefetcher.waitUntilIdle()
            let months = try store.months()
            let held = store.replicas.state.withLock { state in
                months.filter { state.months[$0]?.view != nil || state.months.parked($0)?.view != nil }
            }
            #expect(held == months)
            #expect(try months.map { try store.recordFiles(in: $0) } == expected)
        }
    }
}
