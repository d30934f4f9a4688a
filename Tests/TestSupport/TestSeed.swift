import Foundation

/// The seed of a randomized test: `MINUTAFS_SEED` when set (to repeat a run), a new random one
/// under `SOAK=1` (long runs that look for new failures), else the test's fixed seed, so that
/// `make test` gives the same choices every time and cannot pass or fail by the luck of the draw.
/// Every failure message of such a test names the seed.
public enum TestSeed {
    /// Where a seed came from, printed with it.
    public enum Origin: String, Sendable {
        case environment = "MINUTAFS_SEED"
        case soak = "random, SOAK=1"
        case fixed = "fixed; SOAK=1 draws a random one, MINUTAFS_SEED=N repeats one"
    }

    /// The seed to use and where it came from, read from `environment`.
    ///
    /// - Parameter fixed: the seed of an ordinary run.
    public static func choose(fixed: UInt64, environment: [String: String] = ProcessInfo.processInfo.environment) -> (seed: UInt64, origin: Origin) {
        if let text = environment["MINUTAFS_SEED"], let seed = UInt64(text) { return (seed, .environment) }
        if environment["SOAK"] == "1" { return (UInt64.random(in: 0...UInt64.max), .soak) }
        return (fixed, .fixed)
    }

    /// `choose(fixed:)`, printed as `NAME: seed N (ORIGIN)` so a log shows it before any failure.
    public static func announce(_ name: String, fixed: UInt64) -> UInt64 {
        let (seed, origin) = choose(fixed: fixed)
        print("\(name): seed \(seed) (\(origin.rawValue))")
        return seed
    }
}
