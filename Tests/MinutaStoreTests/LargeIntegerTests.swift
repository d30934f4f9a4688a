import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// An integer that fits no 64-bit type, written without fraction or exponent, is refused rather than
/// stored as a float without a word; the largest unsigned one and the same
/// number written as a fraction are stored.
struct LargeIntegerTests {
    static let january = Month(year: 2024, month: 1)!
    static let name = "2024-01-03_034234.json"

    func written(_ store: Store, key: String = "extra", extra: String) throws -> Store.WriteOutcome {
        let file = try #require(try store.recordFile(named: Self.name, in: Self.january))
        var text = String(decoding: file.contents, as: UTF8.self)
        let end = try #require(text.lastIndex(of: "}"))
        text.replaceSubrange(end..., with: ", \"\(key)\": \(extra)}\n")
        return try store.writeRecordFile(Array(text.utf8), named: Self.name, in: Self.january)
    }

    /// The `extra` member of the record file, parsed.
    func storedExtra(_ store: Store, key: String = "extra") throws -> JSONValue? {
        let file = try #require(try store.recordFile(named: Self.name, in: Self.january))
        return try JSONParser.parse(file.contents)[key]
    }

    @Test("2^64 without fraction or exponent is refused with the field and a reason; nothing changes")
    func twoToTheSixtyFourRefused() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let before = try Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge")
            #expect {
                _ = try written(store, extra: "18446744073709551616")
            } throws: { error in
                guard case .rejected(_, let line, _, let reason) = error as? StoreError else { return false }
                return line != nil && reason.description.contains("\"extra\": 18446744073709551616 fits no 64-bit integer")
            }
            #expect(store.rejectionLog.count == 1 && store.rejectionLog[0].contains("18446744073709551616 fits no 64-bit integer"))
            let unchanged = try Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge") == before
            #expect(unchanged)
            #expect(try storedExtra(store) == nil)
        }
    }

    @Test("the largest unsigned 64-bit integer and 2^64 written as a fraction are stored")
    func inRangeStored() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            #expect(try written(store, extra: "18446744073709551615").changed)
            // Shown as plain JSON numbers, as written.
            let unsigned = try storedExtra(store)
            #expect(unsigned == .unsignedInteger(UInt64.max))
            let asFraction = try written(store, key: "other", extra: "18446744073709551616.0")
            #expect(asFraction.changed)
            let float = try storedExtra(store, key: "other")
            #expect(float == .number(18446744073709551616.0))
            #expect(store.rejectionLog.isEmpty)
        }
    }
}
