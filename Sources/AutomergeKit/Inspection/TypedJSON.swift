extension Document {
    /// The visible state of the document in typed JSON, on one line without a trailing newline.
    ///
    /// The format is the one of the fixtures' `NAME.json` files (`Tests/Fixtures/automerge/README.md`,
    /// "Typed JSON"; SPEC §2): maps are objects with keys in code-point order, lists are arrays,
    /// a text object is `{"_text":…}` (with `"_marks"` first when it has marks), a table
    /// `{"_table":{…}}`, and scalars other than str, int, bool and null are tagged (`_uint`, `_f64`,
    /// `_counter`, `_ts`, `_bytes`, `_unknown`). Where a slot holds concurrent values, the winner is
    /// shown; `conflictLines()` lists the others. Equal states give equal bytes.
    ///
    /// - Complexity: O(*n*) in the size of the visible state, plus the cost of the lookups.
    public func typedJSON() -> String {
        var output = JSONOutput()
        output.appendTypedJSON(.object(.root, .map), of: self)
        return output.makeString()
    }
}
