import CLinuxCalls

/// Gives the heap memory a mount's saves freed back to the system.
///
/// Each save allocates and frees documents' bytes and views on the worker threads; glibc keeps what
/// they free in per-thread arenas, so a mount that saved 20,000 times held about 9 MB more heap than
/// it used (`malloc_stats`: 33.5 MB from the system, 25.5 MB in use; a fresh mount 24.6 and 21.8).
/// `malloc_trim` returns the free pages; it runs from the mount's periodic check, and only when
/// something was saved since the last time, so an idle mount costs nothing.
struct HeapTrimmer {
    private var savedAtLastTrim = 0

    /// Trims when `saved` (the store's count of documents saved) moved since the last trim.
    mutating func trim(ifSavedSince saved: Int) {
        guard saved != savedAtLastTrim else { return }
        savedAtLastTrim = saved
        _ = minutafs_malloc_trim(0)
    }
}
