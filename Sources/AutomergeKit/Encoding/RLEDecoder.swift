/// Reads a run-length encoded column. `next()` gives `nil` for a null entry and for the end of
/// the column; ``isAtEnd`` tells them apart.
struct RLEDecoder<Value: ColumnValue> {
    private var reader: ByteReader
    private var remaining = 0
    private var isLiteral = false
    private var current: Value?

    init(_ bytes: [UInt8], range: Range<Int>) {
        reader = ByteReader(bytes, range: range)
    }

    var isAtEnd: Bool { remaining == 0 && reader.isAtEnd }

    /// Inlined where it is called: inside a run, the common case, it only counts down, while a call
    /// (for every column of every operation decoded) cost more than that.
    @inline(__always)
    mutating func next() throws(AutomergeError) -> Value? {
        if remaining > 0 && !isLiteral {
            remaining -= 1
            return current
        }
        return try nextReading()
    }

    /// ``next()`` where it reads: a literal value, or the next run.
    private mutating func nextReading() throws(AutomergeError) -> Value? {
        try next { (reader: inout ByteReader) throws(AutomergeError) in try Value.read(from: &reader) }
    }

    /// ``next()`` reading each value with `read`.
    @inline(__always)
    private mutating func next(_ read: (inout ByteReader) throws(AutomergeError) -> Value) throws(AutomergeError) -> Value? {
        while remaining == 0 {
            if reader.isAtEnd { return nil }
            let start = reader.position
            let count = try reader.readLenientSignedLEB128()
            if count > 0 {
                guard count <= Int64(Int32.max) else { throw AutomergeError(.invalidColumns, "run length \(count) is too large", at: start) }
                remaining = Int(count)
                current = try read(&reader)
                isLiteral = false
            } else if count < 0 {
                guard count >= -Int64(Int32.max) else { throw AutomergeError(.invalidColumns, "literal run length \(count) is too large", at: start) }
                remaining = Int(-count)
                isLiteral = true
            } else {
                let nulls = try reader.readLenientUnsignedLEB128()
                guard nulls <= UInt64(Int32.max) else { throw AutomergeError(.invalidColumns, "null run length \(nulls) is too large", at: start) }
                remaining = Int(nulls)
                current = nil
                isLiteral = false
            }
        }
        remaining -= 1
        return isLiteral ? try read(&reader) : current
    }
}

extension RLEDecoder where Value == ColumnString {
    /// ``next()`` finding strings it read recently in `cache` instead of making them again.
    @inline(__always)
    mutating func next(cache: inout ColumnStringCache) throws(AutomergeError) -> ColumnString? {
        if remaining > 0 && !isLiteral {
            remaining -= 1
            return current
        }
        return try nextReading(cache: &cache)
    }

    private mutating func nextReading(cache: inout ColumnStringCache) throws(AutomergeError) -> ColumnString? {
        try next { (reader: inout ByteReader) throws(AutomergeError) in try cache.read(from: &reader) }
    }
}

/// Reads a delta-encoded column of signed integers.
struct DeltaDecoder {
    private var rle: RLEDecoder<Int64>
    private var absolute: Int64 = 0

    init(_ bytes: [UInt8], range: Range<Int>) {
        rle = RLEDecoder(bytes, range: range)
    }

    var isAtEnd: Bool { rle.isAtEnd }

    /// The next value: the previous one plus the delta, saturating at the ends of `Int64` as the
    /// reference reads it (its decoder saturates, as its encoder does), so a column gets the
    /// reference's values and verdict: `Tests/Fixtures/verdicts/time-delta-saturates.automerge`
    /// loads in both (a wrapping read would refuse it, and load one the reference refuses). Every
    /// column but the change time checks its values' range afterwards; a time read wrong gives its
    /// change another hash, which the document chunk's heads refuse.
    @inline(__always)
    mutating func next() throws(AutomergeError) -> Int64? {
        guard let delta = try rle.next() else { return nil }
        let (sum, overflow) = absolute.addingReportingOverflow(delta)
        absolute = overflow ? (delta > 0 ? Int64.max : Int64.min) : sum
        return absolute
    }
}

/// Reads a boolean column: alternating run lengths starting with `false`. Past the end it
/// yields `nil`.
struct BooleanDecoder {
    private var reader: ByteReader
    private var value = true
    private var remaining = 0

    init(_ bytes: [UInt8], range: Range<Int>) {
        reader = ByteReader(bytes, range: range)
    }

    var isAtEnd: Bool { remaining == 0 && reader.isAtEnd }

    mutating func next() throws(AutomergeError) -> Bool? {
        while remaining == 0 {
            if reader.isAtEnd { return nil }
            let start = reader.position
            let count = try reader.readLenientUnsignedLEB128()
            guard count <= UInt64(Int32.max) else { throw AutomergeError(.invalidColumns, "boolean run length \(count) is too large", at: start) }
            remaining = Int(count)
            value.toggle()
        }
        remaining -= 1
        return value
    }
}
