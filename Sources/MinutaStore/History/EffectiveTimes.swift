import AutomergeKit

/// When each change of a document took effect (SPEC section 8): the larger of its own time and the
/// effective times of its dependencies, because the app's implicit commits carry time 0. So a
/// change never takes effect before what it builds on, and the changes up to any instant are
/// causally complete.
public struct EffectiveTimes: Sendable {
    /// Change hashes in the document's order (always causal), with their effective times in
    /// milliseconds since the epoch, the same order.
    public let hashes: [ChangeHash]
    public let milliseconds: [Int64]
    /// Each change's dependencies as indexes into `hashes` (sorted), for finding the heads of a prefix.
    let dependencyIndexes: [[Int]]

    /// Writers store change times in seconds or in milliseconds: a time above 10^11 is milliseconds
    /// (10^11 seconds is the year 5138; 10^11 milliseconds is 1973).
    public static func milliseconds(ofChangeTime time: Int64) -> Int64 {
        if time > 100_000_000_000 { return time }
        if time <= 0 { return 0 }
        return time * 1000
    }

    public init(of document: Document) {
        let changes = document.changes
        var index: [ChangeHash: Int] = [:]
        index.reserveCapacity(changes.count)
        var hashes: [ChangeHash] = []
        var times: [Int64] = []
        var dependencies: [[Int]] = []
        hashes.reserveCapacity(changes.count)
        times.reserveCapacity(changes.count)
        dependencies.reserveCapacity(changes.count)
        for change in changes {
            var time = Self.milliseconds(ofChangeTime: change.time)
            var own: [Int] = []
            for dependency in change.dependencies {
                guard let position = index[dependency] else { continue }
                own.append(position)
                time = max(time, times[position])
            }
            index[change.hash] = hashes.count
            hashes.append(change.hash)
            times.append(time)
            dependencies.append(own)
        }
        self.hashes = hashes
        self.milliseconds = times
        dependencyIndexes = dependencies
    }

    /// The effective times of a timeline read from a file (``Document/changeTimeline(ofFile:)``),
    /// in milliseconds, in its order: the same values as ``milliseconds`` of the loaded document, in
    /// the file's order.
    public static func milliseconds(of timeline: ChangeTimeline) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(timeline.times.count)
        for (index, time) in timeline.times.enumerated() {
            var effective = milliseconds(ofChangeTime: time)
            for dependency in timeline.dependencies[index] where dependency < result.count {
                effective = max(effective, result[dependency])
            }
            result.append(effective)
        }
        return result
    }

    /// The changes that had taken effect at `instant` (milliseconds): those whose effective time is
    /// at most it. Causally complete.
    public func changes(atOrBefore instant: Int64) -> Set<ChangeHash> {
        var result = Set<ChangeHash>()
        for position in hashes.indices where milliseconds[position] <= instant { result.insert(hashes[position]) }
        return result
    }

    /// The heads of `changes(atOrBefore:)`, sorted: what identifies that past state.
    public func heads(atOrBefore instant: Int64) -> [ChangeHash] {
        var isDependency = [Bool](repeating: false, count: hashes.count)
        var included = [Bool](repeating: false, count: hashes.count)
        for position in hashes.indices where milliseconds[position] <= instant {
            included[position] = true
            for dependency in dependencyIndexes[position] { isDependency[dependency] = true }
        }
        return hashes.indices.filter { included[$0] && !isDependency[$0] }.map { hashes[$0] }.sorted()
    }

    /// The earliest effective time, nil for a document without changes.
    public var earliest: Int64? { milliseconds.min() }

    /// The latest effective time at or before `instant`, nil when nothing had taken effect.
    public func latest(atOrBefore instant: Int64) -> Int64? {
        milliseconds.filter { $0 <= instant }.max()
    }
}
