/// Rounding that keeps sums: a total is rounded once, then shared out among its parts by the
/// largest-remainder method, so the printed parts add up exactly to the printed total (SPEC section 9,
/// "round once, then distribute"). Each part is its exact value rounded down or up, never further off.
public enum ReportRounding {
    /// Milliseconds in a hundredth of an hour and in a minute: the units `hours` and `H:MM` show.
    public static let hundredthOfHour: Int64 = 36_000, minute: Int64 = 60_000

    /// `values` (milliseconds, negatives taken as 0) in whole `unit`s, adding up to `total`: by
    /// default the exact sum rounded half up. Each part is its exact value rounded down or up (`total`
    /// must be the sum of some such rounding, as a part of a larger distribution is; it is held there).
    ///
    /// Ties between equal remainders go to the earlier part, so the result depends only on the values
    /// and their order. Sums beyond `Int64.max` are held there (SPEC 5b) instead of trapping.
    /// - Complexity: O(*n* log *n*) for *n* values.
    public static func distribute(_ values: [Int64], unit: Int64, total: Int64? = nil) -> [Int64] {
        precondition(unit > 0, "a unit of rounding is positive")
        var floors: [Int64] = []
        var remainders: [Int64] = []
        floors.reserveCapacity(values.count)
        remainders.reserveCapacity(values.count)
        var floorSum: Int64 = 0
        var remainderUnits: Int64 = 0  // whole units in the remainders so far, and what is left over
        var remainderLeft: Int64 = 0
        for value in values {
            let (quotient, remainder) = max(0, value).quotientAndRemainder(dividingBy: unit)
            floors.append(quotient)
            remainders.append(remainder)
            floorSum = floorSum.addingSaturated(quotient)
            remainderLeft += remainder
            if remainderLeft >= unit {
                remainderUnits += 1
                remainderLeft -= unit
            }
        }
        // By default the sum of the remainders, rounded half up, is how many parts get one unit more.
        let extra = total.map { $0.subtractingSaturated(floorSum) } ?? remainderUnits + (remainderLeft * 2 >= unit ? 1 : 0)
        return withExtra(extra, floors: floors, remainders: remainders)
    }

    /// The sum of `values` (milliseconds) in whole `unit`s, rounded half up: what ``distribute(_:unit:total:)``
    /// adds up to by default.
    public static func total(_ values: [Int64], unit: Int64) -> Int64 {
        distribute(values, unit: unit).reduce(Int64(0)) { $0.addingSaturated($1) }
    }

    /// Each part's share of the parts' sum in tenths of a percent, adding up to 1000 (100.0%), or all
    /// 0 when the parts add up to nothing.
    public static func shares(_ parts: [Int64]) -> [Int64] {
        let whole = parts.reduce(Int64(0)) { $0.addingSaturated(max(0, $1)) }
        guard whole > 0 else { return parts.map { _ in 0 } }
        var floors: [Int64] = []
        var remainders: [Int64] = []
        var floorSum: Int64 = 0
        for part in parts {
            // part * 1000 / whole in 128 bits: a part is at most the whole, so the quotient is at most 1000.
            let product = min(max(0, part), whole).multipliedFullWidth(by: 1000)
            let (quotient, remainder) = whole.dividingFullWidth((high: product.high, low: product.low))
            floors.append(quotient)
            remainders.append(remainder)
            floorSum += quotient
        }
        return withExtra(1000 - floorSum, floors: floors, remainders: remainders)
    }

    /// `floors`, with one more for the `extra` parts of largest remainder (earlier first on ties);
    /// `extra` is held between 0 and the number of parts with a remainder.
    private static func withExtra(_ extra: Int64, floors: [Int64], remainders: [Int64]) -> [Int64] {
        var parts = floors
        let candidates = remainders.indices.filter { remainders[$0] > 0 }
        let count = Int(min(max(0, extra), Int64(candidates.count)))
        guard count > 0 else { return parts }
        let ranked = candidates.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
        for index in ranked.prefix(count) { parts[index] = parts[index].addingSaturated(1) }
        return parts
    }
}
