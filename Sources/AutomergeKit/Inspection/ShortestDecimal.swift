/// The shortest decimal digits that read back as a given positive finite `Double`, with its
/// scientific exponent: the value is `d.ddd… × 10^exponent`.
///
/// The digits come from `Double.description`, which prints the shortest round-trip digits but
/// switches to exponent form at its own thresholds (`1e+16`, `1e-05`); this type only takes that text
/// apart so that `JSONOutput.appendDouble(_:)` can lay the digits out by the fixtures' rules.
struct ShortestDecimal: Equatable {
    /// ASCII digits, the first and last non-zero.
    var digits: [UInt8]
    var exponent: Int

    /// - Precondition: `value` is finite and greater than zero.
    init(_ value: Double) {
        precondition(value.isFinite && value > 0, "ShortestDecimal needs a positive finite value")
        var allDigits: [UInt8] = []
        var integerDigitCount = 0
        var seenPoint = false
        var printedExponent = 0
        var exponentIsNegative = false
        var inExponent = false
        for byte in value.description.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    printedExponent = printedExponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    allDigits.append(byte)
                    if !seenPoint { integerDigitCount += 1 }
                }
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-"): exponentIsNegative = inExponent
            default: break  // "+" of the exponent
            }
        }
        if exponentIsNegative { printedExponent = -printedExponent }
        // value = 0.allDigits × 10^(integerDigitCount + printedExponent)
        let leadingZeros = allDigits.prefix { $0 == UInt8(ascii: "0") }.count
        var significant = Array(allDigits.dropFirst(leadingZeros))
        while significant.last == UInt8(ascii: "0") { significant.removeLast() }
        digits = significant
        exponent = integerDigitCount + printedExponent - leadingZeros - 1
    }
}
