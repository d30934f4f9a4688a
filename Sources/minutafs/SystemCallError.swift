import Glibc

/// A failed system call: what the command was doing and the C `errno` value it got.
struct SystemCallError: Error, CustomStringConvertible {
    /// What was being done, for the message (`"cannot write"`); `nil` when the errno text says it all.
    let action: String?
    /// The C `errno` value.
    let code: Int32

    /// `"cannot write: No space left on device"`, or only the errno text when there is no action.
    var description: String {
        let reason = String(cString: strerror(code))
        return action.map { "\($0): \(reason)" } ?? reason
    }
}
