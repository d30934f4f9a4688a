import AutomergeKit
import Testing

/// Run-length encoding lets a few bytes describe millions of rows: a hostile file must get an
/// error, not make the loader allocate them all.
struct ResourceLimitTests {
    static func signedLEB128(_ value: Int64) -> [UInt8] {
        var value = value, bytes: [UInt8] = []
        while true {
            var byte = UInt8(truncatingIfNeeded: value) & 0x7f
            value >>= 6
            if value == 0 || value == -1 { bytes.append(byte); return bytes }
            value >>= 1
            byte |= 0x80
            bytes.append(byte)
        }
    }

    static func unsignedLEB128(_ value: UInt64) -> [UInt8] {
        var value = value, bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7f)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
        return bytes
    }

    /// A change chunk of about 60 bytes whose columns describe `count` identical `set` operations.
    static func bomb(operations count: Int64) -> [UInt8] {
        let columns: [(UInt64, [UInt8])] = [
            (0x15, signedLEB128(count) + [1, UInt8(ascii: "a")]),      // key string: a run of "a"
            (0x34, unsignedLEB128(UInt64(count))),                      // insert: a run of false
            (0x42, signedLEB128(count) + [1]),                          // action: a run of set
            (0x56, signedLEB128(count) + [0]),                          // value metadata: a run of null
            (0x70, signedLEB128(count) + [0]),                          // predecessors: a run of none
        ]
        var body: [UInt8] = [0, 1, 1, 1, 1, 0, 0, 0]  // no deps, actor 01, seq 1, start op 1, time 0, no message, no other actors
        body += unsignedLEB128(UInt64(columns.count))
        for (spec, data) in columns { body += unsignedLEB128(spec) + unsignedLEB128(UInt64(data.count)) }
        for (_, data) in columns { body += data }
        let magic: [UInt8] = [0x85, 0x6f, 0x4a, 0x83]
        return magic + ChunkTesting.rehashed(type: 1, body: body, rest: [], prefix: magic)
    }

    @Test("a few bytes describing millions of operations are refused")
    func operationBomb() throws {
        let bytes = Self.bomb(operations: 1 << 30)
        #expect(bytes.count < 100)
        let error = #expect(throws: AutomergeError.self) { try Document.load(bytes) }
        #expect(error?.description.contains("operations in one chunk") == true, "\(String(describing: error))")
    }

    @Test("the same encoding with a handful of operations loads, so the bomb fails for its size")
    func smallRunLoads() throws {
        let document = try Document.load(Self.bomb(operations: 3))
        #expect(document.keys(of: .root) == ["a"])
        #expect(document.changes.first?.operationCount == 3)
    }
}

/// The other side of the limit: real changes can hold far more operations than bytes.
struct CompactChangeTests {
    @Test("a change deleting a thousand characters (fewer bytes than operations) loads")
    func manyOperationsFewBytes() throws {
        var document = Document(actor: ActorID(hexString: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
        let text = try document.putObject(.text, forKey: "text")
        try document.spliceText(text, at: 0, delete: 0, insert: String(repeating: "x", count: 1000))
        document.commit(time: 1)
        try document.spliceText(text, at: 0, delete: 1000, insert: "")
        document.commit(time: 2)
        let incremental = document.changeChunks(since: [document.changes[0].hash])
        #expect(incremental.count == 1 && incremental[0].count < 1000)
        let loaded = try Document.load(document.save())
        #expect(loaded.text(of: text) == "")
        var fromChanges = try Document.load(document.changeChunks(since: []).flatMap { $0 })
        #expect(fromChanges.heads == document.heads)
        _ = try fromChanges.save()
    }
}
