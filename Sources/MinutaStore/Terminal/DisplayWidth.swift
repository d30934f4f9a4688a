/// How many terminal columns text takes, so tables line up whatever the names and comments hold:
/// East Asian wide and fullwidth characters (CJK, kana, Hangul, fullwidth forms) and emoji shown as
/// emoji take two columns, marks and format characters that stand alone none, the rest one (the
/// rules of Unicode Standard Annex #11 and of `wcwidth`, for the characters reports show).
public enum DisplayWidth {
    /// The columns of one character (a grapheme cluster, as the terminal draws it).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji shown as one (👍, 🚀, a flag, a family joined with ZWJ, ❤️ with VS16) is two columns.
        if first.properties.isEmojiPresentation || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) {
            return 2
        }
        if isWide(first.value) { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return 1
    }

    /// The columns of `text`.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text`, or as much of it as fits in `limit - 1` columns and `…`, so the result takes at most
    /// `limit` columns (`limit` at least 2). Reads no more of `text` than it shows.
    public static func prefix(_ text: String, columns limit: Int) -> String {
        var result = ""
        var used = 0
        var kept = text.startIndex  // the end of what fits with room for the ellipsis
        for index in text.indices {
            let width = of(text[index])
            if used + width > limit { return String(text[..<kept]) + "…" }
            used += width
            if used <= limit - 1 { kept = text.index(after: index) }
            result.append(text[index])
        }
        return result
    }

    /// East Asian Wide (W) and Fullwidth (F) code points (Unicode 15, `EastAsianWidth.txt`), emoji aside.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
             0x231A...0x231B, 0x2329...0x232A,  // watch, hourglass; angle brackets
             0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
             0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed, compatibility
             0x3400...0x4DBF,  // CJK extension A
             0x4E00...0x9FFF,  // CJK unified ideographs
             0xA000...0xA4CF,  // Yi
             0xA960...0xA97F,  // Hangul Jamo extended A
             0xAC00...0xD7A3,  // Hangul syllables
             0xF900...0xFAFF,  // CJK compatibility ideographs
             0xFE10...0xFE19,  // vertical forms
             0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
             0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
             0x16FE0...0x18CFF,  // ideographic symbols, Tangut
             0x1B000...0x1B2FF,  // kana supplement and extensions, Nushu
             0x1F200...0x1F2FF,  // enclosed ideographic supplement
             0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B and beyond
            true
        default:
            false
        }
    }

    /// Combining marks, format characters (ZWJ, ZWSP, variation selectors), as `wcwidth` gives 0.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: true
        default: scalar.properties.isVariationSelector
        }
    }
}
