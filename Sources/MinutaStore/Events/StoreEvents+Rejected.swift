/// A refused write kept for the user: noted (`.minutafs/errors`, status, the log) and its bytes kept
/// under a name made of the time and the file's path.
extension StoreEvents {
    /// Notes `error`, the refusal of a write of `bytes` to `file` at `seconds` since the epoch, and keeps the bytes.
    func noteRejected(_ error: StoreError, bytes: [UInt8], file: String, at seconds: Int) {
        noteRejection(error)
        keepRejected(bytes, file: file, stamp: Self.stamp(ofSeconds: seconds))
    }

    /// `YYYYMMDD-HHMMSS` (UTC) of an instant in seconds since the epoch.
    static func stamp(ofSeconds seconds: Int) -> String {
        let c = ISO8601.components(milliseconds: Int64(seconds) * 1000)
        return "\(ISO8601.pad(c.year, 4))\(ISO8601.pad(c.month, 2))\(ISO8601.pad(c.day, 2))-\(ISO8601.pad(c.hour, 2))\(ISO8601.pad(c.minute, 2))\(ISO8601.pad(c.second, 2))"
    }

    /// Runs a save of `bytes` to `file`; a refusal it throws (`StoreError.rejected`) is noted and the
    /// bytes kept (``noteRejected(_:bytes:file:at:)``) before it is thrown on. Bytes past `limit` are
    /// refused before the save runs (noted, not kept: they may be large).
    func noting<R>(
        refusalsOf bytes: [UInt8], to file: String, limit: Int, at seconds: @autoclosure () -> Int, _ save: () throws(StoreError) -> R
    ) throws(StoreError) -> R {
        guard bytes.count <= limit else {
            let error = StoreError.rejected(file: file, line: nil, column: nil, reason: .tooLarge(limit: limit))
            noteRejection(error)
            throw error
        }
        do throws(StoreError) {
            return try save()
        } catch {
            if case .rejected = error { noteRejected(error, bytes: bytes, file: file, at: seconds()) }
            throw error
        }
    }
}
