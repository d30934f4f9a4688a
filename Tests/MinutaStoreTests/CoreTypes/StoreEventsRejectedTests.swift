@testable import MinutaStore
import Testing

/// `StoreEvents.noting(refusalsOf:…)` alone: a refused save is counted and its bytes kept under the
/// time and the file's path; a save past the limit never runs; other errors and successes note nothing.
struct StoreEventsRejectedTests {
    /// 2024-01-02T03:04:05Z.
    static let instant = 1_704_164_645

    @Test("a refusal is noted and its bytes kept; the error goes on to the caller")
    func refusalKept() {
        let events = StoreEvents(log: { _ in })
        #expect(throws: StoreError.self) {
            try events.noting(refusalsOf: [1, 2], to: "records/2024/01/a.json", limit: 10, at: Self.instant) { () throws(StoreError) in
                throw .rejected(file: "records/2024/01/a.json", line: 1, column: 1, reason: .notAnObject(expected: "x"))
            }
        }
        let noted = events.snapshot
        #expect(noted.rejectedWriteCount == 1)
        #expect(noted.rejectedFiles.map(\.name) == ["20240102-030405_records_2024_01_a.json"])
        #expect(noted.rejectedFiles.first?.bytes == [1, 2])
    }

    @Test("bytes past the limit are refused without running the save, and not kept")
    func tooLarge() {
        let events = StoreEvents(log: { _ in })
        var ran = false
        #expect(throws: StoreError.self) {
            try events.noting(refusalsOf: [1, 2, 3], to: "tags.json", limit: 2, at: Self.instant) { () throws(StoreError) in ran = true }
        }
        #expect(!ran)
        #expect(events.snapshot.rejectedWriteCount == 1)
        #expect(events.snapshot.rejectedFiles.isEmpty)
    }

    @Test("a save that succeeds, or fails otherwise than by a refusal, notes nothing")
    func nothingNoted() throws {
        let events = StoreEvents(log: { _ in })
        #expect(try events.noting(refusalsOf: [1], to: "tags.json", limit: 2, at: Self.instant) { () throws(StoreError) in 7 } == 7)
        #expect(throws: StoreError.self) {
            try events.noting(refusalsOf: [1], to: "tags.json", limit: 2, at: Self.instant) { () throws(StoreError) in throw .notFound("tags.json") }
        }
        #expect(events.snapshot.rejectedWriteCount == 0)
        #expect(events.snapshot.rejectedFiles.isEmpty)
    }
}
