/// How reports round (SPEC section 9): each row shows its own duration, rounded half up from the
/// exact milliseconds to the unit shown (a hundredth of an hour, a minute), the same way in every
/// file; a total is the sum of the rounded rows it covers, so the printed rows add up exactly to the
/// printed totals and anyone can check a row against its own start and end.
public enum ReportRounding {
    /// Milliseconds in a hundredth of an hour and in a minute: the units `hours` and `H:MM` show.
    public static let hundredthOfHour: Int64 = 36_000, minute: Int64 = 60_000

    /// `milliseconds` in whole `unit`s, rounded half up (a negative duration counts as 0): 18,000 ms
    /// is 0.01 h, 17,999 ms is 0.00 h; 30,000 ms is 1 min, 29,999 ms is 0 min.
    public static func rounded(_ milliseconds: Int64, unit: Int64) -> Int64 {
        precondition(unit > 0, "a unit of rounding is positive")
        let (quotient, remainder) = max(0, milliseconds).quotientAndRemainder(dividingBy: unit)
        // remainder < unit, so remainder * 2 cannot overflow for the units reports use.
        return remainder >= unit - remainder ? quotient + 1 : quotient
    }

    /// The sum of `parts` (each already rounded), held at `Int64.max` instead of trapping (SPEC 5b).
    public static func sum(_ parts: some Sequence<Int64>) -> Int64 {
        parts.reduce(Int64(0)) { $0.addingSaturated($1) }
    }

    /// Each part's share of the parts' sum in tenths of a percent, adding up to 1000 (100.0%), or all
    /// 0 when the parts add up to nothing: shared out by the largest-remainder method, each share its
    /// exact value rounded down or up.
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
        var shares = floors
        let candidates = remainders.indices.filter { remainders[$0] > 0 }
        let count = Int(min(max(0, 1000 - floorSum), Int64(candidates.count)))
        let ranked = candidates.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
        for index in ranked.prefix(count) { shares[index] += 1 }
        return shares
    }
}
