/// `minutafs check` (`Reports/StoreCheck.swift` decides what a problem is).
extension Store {
    /// One line per problem: unloadable documents, conflict copies waiting, missing images,
    /// records filed in a month their startTime is not in.
    public func check() -> [String] { StoreCheck(store: self).problems() }
}
