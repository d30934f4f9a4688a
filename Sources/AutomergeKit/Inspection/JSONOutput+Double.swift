extension JSONOutput {
    /// Appends a finite or non-finite `Double` as the fixtures write an f64.
    ///
    /// Finite values get the shortest digits that read back to the same `Double`, in exponent form
    /// when |x| >= 1e16 or 0 < |x| < 1e-5 (`1e16`, `1.2345678901234568e16`, `1e-7`, `5e-324`, no
    /// `+`), otherwise as a plain decimal with `.0` for integral values (`0.0`, `-0.0`, `100.0`,
    /// `1000000000000000.0`, `0.00001`). NaN and the infinities are the JSON strings `"NaN"`,
    /// `"inf"` and `"-inf"`.
    mutating func appendDouble(_ value: Double) {
        if value.isNaN {
            appendRaw("\"NaN\"")
        } else if value.isInfinite {
            appendRaw(value < 0 ? "\"-inf\"" : "\"inf\"")
        } else {
            appendFiniteDouble(value)
        }
    }

    private mutating func appendFiniteDouble(_ value: Double) {
        if value.sign == .minus { appendRaw(byte: UInt8(ascii: "-")) }
        guard value != 0 else {
            appendRaw("0.0")
            return
        }
        let decimal = ShortestDecimal(value.magnitude)
        let digits = decimal.digits
        let exponent = decimal.exponent
        if exponent >= 16 || exponent <= -6 {
            appendRaw(byte: digits[0])
            if digits.count > 1 {
                appendRaw(byte: UInt8(ascii: "."))
                for digit in digits.dropFirst() { appendRaw(byte: digit) }
            }
            appendRaw(byte: UInt8(ascii: "e"))
            appendInteger(exponent)
        } else if exponent >= 0 {
            let integerDigitCount = exponent + 1
            for digit in digits.prefix(integerDigitCount) { appendRaw(byte: digit) }
            for _ in digits.count..<max(digits.count, integerDigitCount) { appendRaw(byte: UInt8(ascii: "0")) }
            appendRaw(byte: UInt8(ascii: "."))
            if digits.count > integerDigitCount {
                for digit in digits.dropFirst(integerDigitCount) { appendRaw(byte: digit) }
            } else {
                appendRaw(byte: UInt8(ascii: "0"))
            }
        } else {
            appendRaw("0.")
            for _ in 0..<(-exponent - 1) { appendRaw(byte: UInt8(ascii: "0")) }
            for digit in digits { appendRaw(byte: digit) }
        }
    }
}
