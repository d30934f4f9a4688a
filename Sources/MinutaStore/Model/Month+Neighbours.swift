extension Month {
    /// The month before this one; nil before year 1.
    public var previous: Month? {
        month == 1 ? Month(year: year - 1, month: 12) : Month(year: year, month: month - 1)
    }

    /// The month after this one; nil after year 9999.
    public var next: Month? {
        month == 12 ? Month(year: year + 1, month: 1) : Month(year: year, month: month + 1)
    }
}
