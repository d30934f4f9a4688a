import FileTreeInterface

extension TreeAttributes {
    /// Attributes with the store's times (whole seconds and nanoseconds as `Int`). `changesOnlyWithNotice`:
    /// a read-only file whose contents change only with a change the store reports (a report without a
    /// running timer), so the kernel may keep its pages like a record file's.
    init(isDirectory: Bool, size: Int, modificationSeconds: Int, modificationNanoseconds: Int, isWritable: Bool, changesOnlyWithNotice: Bool = false) {
        self.init(isDirectory: isDirectory, size: size,
                  modificationTime: TreeTime(seconds: Int64(modificationSeconds), nanoseconds: Int32(modificationNanoseconds)),
                  isWritable: isWritable, changesWithoutNotice: !isWritable && !changesOnlyWithNotice)
    }
}
