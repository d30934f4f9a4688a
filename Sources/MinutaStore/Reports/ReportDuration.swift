/// Exact durations in milliseconds and the two ways reports show them: a duration is rounded half up
/// to the unit shown (`ReportRounding`), and a total is the sum of the rounded figures it covers, so
/// every printed column adds up to its printed total.
public enum ReportDuration {
    /// Decimal hours with two places, rounded half up: `7.50`.
    public static func hours(_ milliseconds: Int64) -> String {
        hours(hundredths: ReportRounding.rounded(milliseconds, unit: ReportRounding.hundredthOfHour))
    }

    /// Hundredths of an hour as decimal hours with two places: `750` is `7.50`.
    public static func hours(hundredths: Int64) -> String {
        let (whole, fraction) = max(0, hundredths).quotientAndRemainder(dividingBy: 100)
        return "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// `H:MM`, rounded half up to the minute: `7:30`.
    public static func hoursAndMinutes(_ milliseconds: Int64) -> String {
        hoursAndMinutes(minutes: ReportRounding.rounded(milliseconds, unit: ReportRounding.minute))
    }

    /// Minutes as `H:MM`: `450` is `7:30`.
    public static func hoursAndMinutes(minutes: Int64) -> String {
        let (hours, minute) = max(0, minutes).quotientAndRemainder(dividingBy: 60)
        return "\(hours):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// A share of a whole as a percentage with one decimal: `12.5%` (`0.0%` of nothing).
    public static func share(_ part: Int64, of whole: Int64) -> String {
        guard whole > 0 else { return "0.0%" }
        // part * 1000 + whole / 2 in 128 bits: months of records lasting millennia overflow 64. With
        // the part at most the whole, the quotient is at most 1000.
        let product = min(max(0, part), whole).multipliedFullWidth(by: 1000)
        let (low, carry) = product.low.addingReportingOverflow(UInt64(whole / 2))
        let tenths = whole.dividingFullWidth((high: product.high + (carry ? 1 : 0), low: low)).quotient
        return share(tenths: tenths)
    }

    /// Tenths of a percent as a percentage with one decimal: `125` is `12.5%`.
    public static func share(tenths: Int64) -> String {
        let value = max(0, tenths)
        return "\(value / 10).\(value % 10)%"
    }
}
