extension Document {
    /// The change history, one line per change in history order (the order the document holds its
    /// changes, always causal), in the format of the fixtures' `NAME.changes` files:
    ///
    ///     hash actor seq startOp nOps deps time message
    ///
    /// `hash` and `actor` in lowercase hex, `deps` the dependency hashes ascending and comma-joined
    /// (`-` when there are none), `time` as stored, `message` a JSON string or `null`.
    public func changeLines() -> [String] {
        changes.map { change in
            var output = JSONOutput()
            output.appendLowercaseHex(change.hash.bytes)
            output.appendRaw(byte: UInt8(ascii: " "))
            output.appendLowercaseHex(change.actor.bytes)
            output.appendRaw(byte: UInt8(ascii: " "))
            output.appendInteger(change.sequence)
            output.appendRaw(byte: UInt8(ascii: " "))
            output.appendInteger(change.startOperation)
            output.appendRaw(byte: UInt8(ascii: " "))
            output.appendInteger(change.operationCount)
            output.appendRaw(byte: UInt8(ascii: " "))
            if change.dependencies.isEmpty {
                output.appendRaw(byte: UInt8(ascii: "-"))
            } else {
                for (index, dependency) in change.dependencies.enumerated() {
                    if index > 0 { output.appendRaw(byte: UInt8(ascii: ",")) }
                    output.appendLowercaseHex(dependency.bytes)
                }
            }
            output.appendRaw(byte: UInt8(ascii: " "))
            output.appendInteger(change.time)
            output.appendRaw(byte: UInt8(ascii: " "))
            if let message = change.message {
                output.appendString(message)
            } else {
                output.appendRaw("null")
            }
            return output.makeString()
        }
    }
}
