/// A moment as a file system shows it: whole seconds since 1970-01-01 UTC and the nanoseconds after them.
public struct TreeTime: Sendable, Hashable, Comparable {
    public var seconds: Int64
    /// 0 ..< 1_000_000_000.
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The moment `milliseconds` after the epoch, as Automerge timestamps count.
    public init(milliseconds: Int64) {
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if remainder < 0 {
            self.init(seconds: seconds - 1, nanoseconds: Int32(remainder + 1000) * 1_000_000)
        } else {
            self.init(seconds: seconds, nanoseconds: Int32(remainder) * 1_000_000)
        }
    }

    public static func < (left: TreeTime, right: TreeTime) -> Bool {
        (left.seconds, left.nanoseconds) < (right.seconds, right.nanoseconds)
    }
}
