/// The typed JSON number format, for layers that render values themselves (the record files).
public enum TypedJSONFormat {
    /// An f64 as the typed JSON writes it: `1.5`, `100.0`, `1e16`, `"NaN"`, `"inf"`.
    public static func f64(_ value: Double) -> String {
        var output = JSONOutput()
        output.appendDouble(value)
        return output.makeString()
    }
}
