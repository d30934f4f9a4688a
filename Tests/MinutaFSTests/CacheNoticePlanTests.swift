@testable import MinutaFS
import Testing

/// What a batch of cache notices becomes (`KernelCacheNotifier.plan`): nothing that takes a lock a request
/// may hold. Changed names become one epoch increment (or nothing, on a kernel without epochs); a folder
/// that is the parent of a changed name loses its attributes and kept listing; every other inode only its
/// attributes, never its pages (a read in flight holds them locked).
struct CacheNoticePlanTests {
    static let batch: [KernelCacheNotice] = [
        .inode(7), .entry(parent: 3, name: "2024-01-03_034234.json"), .inode(3),
        .entry(parent: 3, name: "2024-01-05_095437.json"), .inode(3), .inode(9), .inode(7),
    ]

    @Test("names become one epoch increment; their folder loses its listing; files lose attributes only, each once")
    func withEpochs() {
        let plan = KernelCacheNotifier.plan(Self.batch, entriesByEpoch: true)
        #expect(plan.incrementsEpoch)
        #expect(plan.folders == [3])
        #expect(plan.attributes == [7, 9])
        #expect(plan.entries.count == 2)
    }

    @Test("a kernel without epochs gets no increment (and no entry notice: the notifier sends none)")
    func withoutEpochs() {
        let plan = KernelCacheNotifier.plan(Self.batch, entriesByEpoch: false)
        #expect(!plan.incrementsEpoch)
        #expect(plan.folders == [3])
        #expect(plan.attributes == [7, 9])
    }

    @Test("a batch without names increments nothing and drops no listing")
    func attributesOnly() {
        let plan = KernelCacheNotifier.plan([.inode(5), .inode(3)], entriesByEpoch: true)
        #expect(!plan.incrementsEpoch)
        #expect(plan.folders.isEmpty)
        #expect(plan.attributes == [5, 3])
    }
}
