extension JSONValue {
    /// The value as `jq .` writes it, on one line: how `.minutafs/conflicts` and the log show a value.
    var oneLine: String {
        String(decoding: JSONWriter.pretty(self).dropLast(), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
    }
}
