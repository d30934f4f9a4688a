/// Run-length encoding of a column of optional values, byte-identical to the reference encoder.
///
/// Runs are written as `count value` (count > 0), literal runs as `-count v1 v2 …`, null runs as
/// `0 count`. A column made only of nulls is written as nothing at all.
struct RLEEncoder<Value: ColumnValue> {
    private enum Mode {
        case empty, initialNulls, nulls, lone, run, literal
    }

    private(set) var output: [UInt8] = []
    private var mode: Mode = .empty
    /// Nulls in a null run, or repetitions in a run.
    private var count = 0
    /// The last value appended (lone value, run value, or the literal run's last value).
    private var current: Value?
    /// A literal run's values before `current`; kept outside the mode so appending never copies it.
    private var literal: [Value] = []

    init() {}

    @inline(__always)
    mutating func append(_ value: Value?) {
        if let value { appendValue(value) } else { appendNull() }
    }

    @inline(__always)
    mutating func appendNull() {
        switch mode {
        case .empty: mode = .initialNulls; count = 1
        case .initialNulls, .nulls: count += 1
        case .lone, .run, .literal:
            flushValues()
            mode = .nulls
            count = 1
        }
    }

    @inline(__always)
    mutating func appendValue(_ value: Value) {
        switch mode {
        case .empty:
            mode = .lone
            current = value
        case .lone:
            if current == value {
                mode = .run
                count = 2
            } else {
                if let current { literal.append(current) }
                mode = .literal
                current = value
            }
        case .run:
            if current == value {
                count += 1
            } else {
                flushValues()
                mode = .lone
                current = value
            }
        case .literal:
            if current == value {
                writeLiteral(including: nil)
                mode = .run
                count = 2
            } else {
                if let current { literal.append(current) }
                current = value
            }
        case .initialNulls, .nulls:
            writeNullRun(count)
            mode = .lone
            current = value
        }
    }

    /// Flushes the last run and returns the encoded column.
    mutating func finish() -> [UInt8] {
        flush()
        return output
    }

    /// Flushes the last run into ``output``.
    mutating func flush() {
        switch mode {
        case .empty, .initialNulls: break
        case .nulls: writeNullRun(count)
        case .lone, .run, .literal: flushValues()
        }
        mode = .empty
    }

    /// Empties the encoder for reuse, keeping its buffers' capacity.
    mutating func reset() {
        if !output.isEmpty { output.removeAll(keepingCapacity: true) }
        if !literal.isEmpty { literal.removeAll(keepingCapacity: true) }
        mode = .empty
        count = 0
        current = nil
    }

    /// Writes the pending lone value, run or literal run.
    private mutating func flushValues() {
        switch mode {
        case .lone: writeLiteral(including: current)
        case .run:
            output.appendSignedLEB128(Int64(count))
            current?.write(to: &output)
        case .literal: writeLiteral(including: current)
        default: break
        }
        current = nil
    }

    private mutating func writeNullRun(_ count: Int) {
        output.appendSignedLEB128(0)
        output.appendUnsignedLEB128(UInt64(count))
    }

    /// Writes `literal` (plus `last`, when given) as a literal run and empties it.
    private mutating func writeLiteral(including last: Value?) {
        output.appendSignedLEB128(-Int64(literal.count + (last == nil ? 0 : 1)))
        for value in literal { value.write(to: &output) }
        last?.write(to: &output)
        if !literal.isEmpty { literal.removeAll(keepingCapacity: true) }
    }
}

/// Delta encoding: each value is written as its difference from the previous non-null value,
/// run-length encoded.
struct DeltaEncoder {
    private(set) var rle = RLEEncoder<Int64>()
    private var previous: Int64 = 0
    /// Whether a value's difference from the previous one did not fit in 64 bits: the column was
    /// written with the difference saturated, as the reference writes it, and no loader reads it back
    /// as written (the reference wraps, this engine refuses). The encoder's caller refuses to save.
    private(set) var overflowed = false

    init() {}

    @inline(__always)
    mutating func append(_ value: Int64?) {
        guard let value else { rle.appendNull(); return }
        let (difference, overflow) = value.subtractingReportingOverflow(previous)
        if overflow {
            overflowed = true
            rle.appendValue(value < previous ? Int64.min : Int64.max)
        } else {
            rle.appendValue(difference)
        }
        previous = value
    }

    mutating func finish() -> [UInt8] { rle.finish() }
    mutating func flush() { rle.flush() }
    var output: [UInt8] { rle.output }

    mutating func reset() {
        rle.reset()
        previous = 0
        overflowed = false
    }
}

/// Boolean encoding: alternating run lengths, starting with a run of `false` (possibly empty).
struct BooleanEncoder {
    private(set) var output: [UInt8] = []
    private var last = false
    private var count = 0
    private(set) var sawTrue = false

    init() {}

    @inline(__always)
    mutating func append(_ value: Bool) {
        if value { sawTrue = true }
        if value == last {
            count += 1
        } else {
            output.appendUnsignedLEB128(UInt64(count))
            last = value
            count = 1
        }
    }

    mutating func finish() -> [UInt8] {
        flush()
        return output
    }

    mutating func flush() {
        if count > 0 { output.appendUnsignedLEB128(UInt64(count)) }
        count = 0
    }

    mutating func reset() {
        if !output.isEmpty { output.removeAll(keepingCapacity: true) }
        last = false
        count = 0
        sawTrue = false
    }

    /// Like ``finish()``, but a column of only `false` is left out entirely (the reference's
    /// "maybe boolean" columns such as `expand`).
    mutating func finishOmittingAllFalse() -> [UInt8] {
        let bytes = finish()
        return sawTrue ? bytes : []
    }
}
