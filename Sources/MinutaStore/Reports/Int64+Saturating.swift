extension Int64 {
    /// `self + other`, held at `Int64.min` or `Int64.max` instead of trapping. Times and durations
    /// come from documents, which may hold any value (SPEC section 5b): a sum of them must not stop
    /// the mount. Within years 1 to 9999 every sum reports make is exact.
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, held at `Int64.min` or `Int64.max` instead of trapping (see ``addingSaturated(_:)``).
    func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }
}
