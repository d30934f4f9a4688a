import AutomergeKit

/// The tests' deterministic generator, so property tests repeat exactly: the same `SplitMix64`
/// the demo store and the benchmarks use.
public typealias SeededGenerator = SplitMix64
