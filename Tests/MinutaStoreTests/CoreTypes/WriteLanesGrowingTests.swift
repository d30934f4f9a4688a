@testable import MinutaStore
import Testing

/// `WriteLanes.run(growing:_:)` alone: a change that finds it needs another lane runs again from the
/// start holding both; one that asks again for what it holds gets the whole store; an error ends it.
struct WriteLanesGrowingTests {
    static let march = Month(year: 2024, month: 3)!
    static let april = Month(year: 2024, month: 4)!

    @Test("a change that needs another month's lane runs again holding both, and its result is the second run's")
    func grows() throws {
        let lanes = WriteLanes()
        var runs: [String] = []
        let result = try lanes.run(growing: .month(Self.march)) { (held: WriteClaim) throws(StoreError) -> LaneOutcome<Int> in
            runs.append(held.description)
            guard held.covers(.month(Self.april)) else { return .needs(.month(Self.april)) }
            #expect(held.covers(.month(Self.march)))
            return .done(runs.count)
        }
        #expect(result == 2)
        #expect(runs.count == 2)
    }

    @Test("a change that asks for what it already holds gets the whole store, then ends")
    func asksAgain() throws {
        let lanes = WriteLanes()
        var claims: [Bool] = []
        try lanes.run(growing: .month(Self.march)) { (held: WriteClaim) throws(StoreError) -> LaneOutcome<Void> in
            let whole = held.covers(.wholeStore)
            claims.append(whole)
            return whole ? .done(()) : .needs(.month(Self.march))
        }
        #expect(claims == [false, true])
    }

    @Test("an error thrown by the change ends it, and its lanes are free again")
    func throwsThrough() {
        let lanes = WriteLanes()
        #expect(throws: StoreError.self) {
            try lanes.run(growing: .month(Self.march)) { (_: WriteClaim) throws(StoreError) -> LaneOutcome<Void> in throw .notFound("x") }
        }
        // Were march still held by this thread, a claim it does not cover would stop at the lanes' precondition.
        let value = lanes.run(.wholeStore) { 1 }
        #expect(value == 1)
    }
}
