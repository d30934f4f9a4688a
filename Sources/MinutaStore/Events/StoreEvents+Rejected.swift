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
}
