import Dispatch
import Foundation
@testable import MinutaStore
import Synchronization
import Testing

/// `WriteLanes` on its own: changes of different months run at once, changes of one month run one at a
/// time in the order they asked, a whole-store change waits for every lane and is not overtaken, and a
/// change run inside another that covers it runs in place. Every wait is on a semaphore with a bound of
/// 10 s, and the order is read from what the changes recorded.
struct WriteLanesTests {
    static let march = Month(year: 2024, month: 3)!
    static let april = Month(year: 2024, month: 4)!

    /// What the changes did, in order.
    final class Trace: Sendable {
        private let entries = Mutex<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Runs `body` on a thread of its own (not the shared dispatch pool, which a busy test run can
    /// exhaust), entering `group` until it ends.
    func onThread(_ group: DispatchGroup?, _ body: @escaping @Sendable () -> Void) {
        group?.enter()
        let thread = Thread {
            body()
            group?.leave()
        }
        thread.start()
    }

    static func waitFor(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 10) == .success
    }

    /// Waits until `lanes` counts `count` changes that had to wait (a change queued).
    static func waitForWaits(_ lanes: WriteLanes, _ count: Int) -> Bool {
        for _ in 0..<10_000 where lanes.waitCount < count { usleep(1000) }
        return lanes.waitCount >= count
    }

    @Test("a change of April runs while a change of March is under way")
    func differentMonthsAtOnce() {
        let lanes = WriteLanes()
        let marchEntered = DispatchSemaphore(value: 0)
        let aprilDone = DispatchSemaphore(value: 0)
        let marchMayEnd = DispatchSemaphore(value: 0)
        let trace = Trace()
        onThread(nil) {
            lanes.run(.month(Self.march)) {
                marchEntered.signal()
                // March ends only once April has run: with one lane for both this waits out its bound.
                trace.note(Self.waitFor(marchMayEnd) ? "march saw april" : "march waited out its bound")
            }
        }
        #expect(Self.waitFor(marchEntered))
        onThread(nil) {
            lanes.run(.month(Self.april)) { _ = marchMayEnd.signal() }
            aprilDone.signal()
        }
        #expect(Self.waitFor(aprilDone))
        #expect(lanes.waitCount == 0)
        for _ in 0..<10_000 where trace.all.isEmpty { usleep(1000) }
        #expect(trace.all == ["march saw april"])
    }

    @Test("changes of one month run one at a time, in the order they asked")
    func oneMonthInOrder() {
        let lanes = WriteLanes()
        let trace = Trace()
        let firstEntered = DispatchSemaphore(value: 0)
        let firstMayEnd = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        onThread(group) {
            lanes.run(.month(Self.march)) {
                firstEntered.signal()
                _ = Self.waitFor(firstMayEnd)
                trace.note("first")
            }
        }
        #expect(Self.waitFor(firstEntered))
        for (index, name) in ["second", "third", "fourth"].enumerated() {
            onThread(group) {
                lanes.run(.month(Self.march)) { trace.note(name) }
            }
            #expect(Self.waitForWaits(lanes, index + 1))
        }
        firstMayEnd.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(trace.all == ["first", "second", "third", "fourth"])
    }

    @Test("a whole-store change waits for a month's change, and a later month change does not overtake it")
    func wholeStoreInTurn() {
        let lanes = WriteLanes()
        let trace = Trace()
        let marchEntered = DispatchSemaphore(value: 0)
        let marchMayEnd = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        onThread(group) {
            lanes.run(.month(Self.march)) {
                marchEntered.signal()
                _ = Self.waitFor(marchMayEnd)
                trace.note("march")
            }
        }
        #expect(Self.waitFor(marchEntered))
        onThread(group) {
            lanes.run(.wholeStore) { trace.note("whole store") }
        }
        #expect(Self.waitForWaits(lanes, 1))
        // April meets nothing running, but it meets the whole-store change waiting before it.
        onThread(group) {
            lanes.run(.month(Self.april)) { trace.note("april") }
        }
        #expect(Self.waitForWaits(lanes, 2))
        marchMayEnd.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(trace.all == ["march", "whole store", "april"])
    }

    @Test("a change inside a change that covers it runs in place")
    func nestedInPlace() {
        let lanes = WriteLanes()
        let trace = Trace()
        lanes.run(.wholeStore) {
            lanes.run(.month(Self.march)) {
                lanes.run(.month(Self.march)) { trace.note("inner") }
            }
        }
        lanes.run(.lanes([.month(Self.march), .tags])) {
            lanes.run(.tags) { trace.note("tags") }
        }
        #expect(trace.all == ["inner", "tags"])
        #expect(lanes.waitCount == 0)
    }

    @Test("claims: what covers what, what may run beside what")
    func claims() {
        let march = WriteClaim.month(Self.march)
        let both = WriteClaim.lanes([.month(Self.march), .month(Self.april)])
        #expect(both.covers(march))
        #expect(!march.covers(both))
        #expect(!march.covers(.wholeStore))
        #expect(WriteClaim.wholeStore.covers(both))
        #expect(march.isDisjoint(with: .month(Self.april)))
        #expect(!march.isDisjoint(with: both))
        #expect(!march.isDisjoint(with: .wholeStore))
        #expect(march.union(.month(Self.april)).covers(both))
        #expect(WriteClaim.document("tags.automerge").covers(.tags))
        #expect(WriteClaim.document("records/2024/03.automerge").covers(march))
        #expect(WriteClaim.document("records/2024/03/x.png").covers(.wholeStore))
    }
}
