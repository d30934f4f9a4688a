import AutomergeKit

/// Merges that bring another device's changes into a held document note which record and tag fields
/// they changed; a save is then judged by what its writer read (`Edits/SupersededValues.swift`, SPEC 5b).
extension Store {
    /// The merges noted so far are shown from now on (the mount dropped the kernel's caches of what
    /// they changed): a writer that reads after this could have seen them.
    public func publishMerges() {
        let now = ContinuousClock.now
        documentFiles.publishMerges(at: now)
    }
}
