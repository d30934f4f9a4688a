/// Run-length encoding of a column of optional values, byte-identical to the reference encoder.
///
/// Runs are written as `count value` (count > 0), literal runs as `-count v1 v2 …`, null runs as
/// `0 count`. A column made only of nulls is written as nothing at all.
struct RLEEncoder<Value: ColumnValue> {
    private enum State {
        case empty
        case initialNullRun(Int)
        case nullRun(Int)
        case loneValue(Value)
        case run(Value, Int)
        case literalRun(last: Value, earlier: [Value])
    }

    private(set) var output: [UInt8] = []
    private var state: State = .empty

    init() {}

    mutating func append(_ value: Value?) {
        if let value { appendValue(value) } else { appendNull() }
    }

    mutating func appendNull() {
        switch state {
        case .empty: state = .initialNullRun(1)
        case .initialNullRun(let count): state = .initialNullRun(count + 1)
        case .nullRun(let count): state = .nullRun(count + 1)
        case .loneValue(let value):
            writeLiteral([value])
            state = .nullRun(1)
        case .run(let value, let count):
            writeRun(value, count)
            state = .nullRun(1)
        case .literalRun(let last, var earlier):
            earlier.append(last)
            writeLiteral(earlier)
            state = .nullRun(1)
        }
    }

    mutating func appendValue(_ value: Value) {
        switch state {
        case .empty:
            state = .loneValue(value)
        case .loneValue(let other):
            state = other == value ? .run(value, 2) : .literalRun(last: value, earlier: [other])
        case .run(let other, let count):
            if other == value {
                state = .run(other, count + 1)
            } else {
                writeRun(other, count)
                state = .loneValue(value)
            }
        case .literalRun(let last, var earlier):
            if last == value {
                state = .empty
                writeLiteral(earlier)
                state = .run(value, 2)
            } else {
                state = .empty
                earlier.append(last)
                state = .literalRun(last: value, earlier: earlier)
            }
        case .nullRun(let count), .initialNullRun(let count):
            writeNullRun(count)
            state = .loneValue(value)
        }
    }

    /// Flushes the last run and returns the encoded column.
    mutating func finish() -> [UInt8] {
        switch state {
        case .empty, .initialNullRun: break
        case .nullRun(let count): writeNullRun(count)
        case .loneValue(let value): writeLiteral([value])
        case .run(let value, let count): writeRun(value, count)
        case .literalRun(let last, var earlier):
            earlier.append(last)
            writeLiteral(earlier)
        }
        state = .empty
        return output
    }

    private mutating func writeRun(_ value: Value, _ count: Int) {
        output.appendSignedLEB128(Int64(count))
        value.write(to: &output)
    }

    private mutating func writeNullRun(_ count: Int) {
        output.appendSignedLEB128(0)
        output.appendUnsignedLEB128(UInt64(count))
    }

    private mutating func writeLiteral(_ values: [Value]) {
        output.appendSignedLEB128(-Int64(values.count))
        for value in values { value.write(to: &output) }
    }
}

/// Delta encoding: each value is written as its difference from the previous non-null value,
/// run-length encoded.
struct DeltaEncoder {
    private var rle = RLEEncoder<Int64>()
    private var previous: Int64 = 0

    init() {}

    mutating func append(_ value: Int64?) {
        guard let value else { rle.appendNull(); return }
        let (difference, overflow) = value.subtractingReportingOverflow(previous)
        rle.appendValue(overflow ? (value < previous ? Int64.min : Int64.max) : difference)
        previous = value
    }

    mutating func finish() -> [UInt8] { rle.finish() }
}

/// Boolean encoding: alternating run lengths, starting with a run of `false` (possibly empty).
struct BooleanEncoder {
    private(set) var output: [UInt8] = []
    private var last = false
    private var count = 0
    private(set) var sawTrue = false

    init() {}

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
        if count > 0 { output.appendUnsignedLEB128(UInt64(count)) }
        count = 0
        return output
    }

    /// Like ``finish()``, but a column of only `false` is left out entirely (the reference's
    /// "maybe boolean" columns such as `expand`).
    mutating func finishOmittingAllFalse() -> [UInt8] {
        let bytes = finish()
        return sawTrue ? bytes : []
    }
}
