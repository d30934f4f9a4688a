/// What two `minutafs sync` peers say to each other, one frame of ``SyncFrameChannel`` each. The
/// side that started the sync sends, the serving side answers every frame with exactly one.
///
/// A frame is a kind byte, then its fields: numbers as 4-byte big-endian, strings and byte strings
/// as a 4-byte big-endian length and the bytes.
enum SessionFrame: Equatable {
    /// The first frame each way: who is speaking (`host:store path`, the key of the sync states it
    /// keeps for the other side), whether nothing may be written, and what the store holds: its
    /// documents, and a summary of each month's images (`path` the month folder, `size` the number
    /// of images, `digest` the SHA-256 of their names, sizes and digests), so that only the
    /// months whose images differ are listed in full.
    case hello(peer: String, dryRun: Bool, documents: [String], images: [ImageEntry])
    /// Asks for the images of one month folder.
    case imageListRequest(folder: String)
    /// The images of one month folder, with sizes and digests.
    case imageList(folder: String, images: [ImageEntry])
    /// A sync message for one document (empty: nothing to send).
    case sync(path: String, message: [UInt8])
    /// The document cannot take part on the answering side (it does not load): why.
    case skipped(path: String, reason: String)
    /// Asks for an image's bytes.
    case imageRequest(path: String)
    /// An image's bytes: sent to be kept (the other side writes it, or a conflict copy of it), or
    /// the answer to a request.
    case image(path: String, bytes: [UInt8])
    /// The answer to an image sent: the name it was written as (empty: nothing written).
    case imageStored(path: String, writtenAs: String)
    /// The last frame each way: how many documents this side changed (the initiator sends 0).
    case done(documentsChanged: Int)
    /// The serving side stops: why.
    case failure(String)

    /// An image file of a month: its path in the store, size and SHA-256.
    struct ImageEntry: Equatable {
        var path: String
        var size: Int
        var digest: [UInt8]
    }

    enum DecodingFailure: Error, CustomStringConvertible {
        case malformed(String)
        var description: String {
            switch self { case .malformed(let what): "a malformed frame from the other side: \(what)" }
        }
    }

    var encoded: [UInt8] {
        var writer = Writer()
        switch self {
        case .hello(let peer, let dryRun, let documents, let images):
            writer.byte(1); writer.string(peer); writer.byte(dryRun ? 1 : 0)
            writer.number(documents.count); for document in documents { writer.string(document) }
            writer.number(images.count)
            for image in images { writer.string(image.path); writer.number(image.size); writer.bytes(image.digest) }
        case .sync(let path, let message): writer.byte(2); writer.string(path); writer.bytes(message)
        case .skipped(let path, let reason): writer.byte(3); writer.string(path); writer.string(reason)
        case .imageRequest(let path): writer.byte(4); writer.string(path)
        case .image(let path, let bytes): writer.byte(5); writer.string(path); writer.bytes(bytes)
        case .imageStored(let path, let writtenAs): writer.byte(6); writer.string(path); writer.string(writtenAs)
        case .done(let count): writer.byte(7); writer.number(count)
        case .failure(let reason): writer.byte(8); writer.string(reason)
        case .imageListRequest(let folder): writer.byte(9); writer.string(folder)
        case .imageList(let folder, let images):
            writer.byte(10); writer.string(folder); writer.number(images.count)
            for image in images { writer.string(image.path); writer.number(image.size); writer.bytes(image.digest) }
        }
        return writer.output
    }

    static func decode(_ bytes: [UInt8]) throws(DecodingFailure) -> SessionFrame {
        var reader = Reader(bytes: bytes)
        let kind = try reader.byte()
        switch kind {
        case 1:
            let peer = try reader.string()
            let dryRun = try reader.byte() != 0
            var documents: [String] = []
            for _ in 0..<(try reader.count()) { documents.append(try reader.string()) }
            var images: [ImageEntry] = []
            for _ in 0..<(try reader.count()) {
                images.append(ImageEntry(path: try reader.string(), size: try reader.number(), digest: try reader.bytes()))
            }
            return .hello(peer: peer, dryRun: dryRun, documents: documents, images: images)
        case 2: return .sync(path: try reader.string(), message: try reader.bytes())
        case 3: return .skipped(path: try reader.string(), reason: try reader.string())
        case 4: return .imageRequest(path: try reader.string())
        case 5: return .image(path: try reader.string(), bytes: try reader.bytes())
        case 6: return .imageStored(path: try reader.string(), writtenAs: try reader.string())
        case 7: return .done(documentsChanged: try reader.number())
        case 8: return .failure(try reader.string())
        case 9: return .imageListRequest(folder: try reader.string())
        case 10:
            let folder = try reader.string()
            var images: [ImageEntry] = []
            for _ in 0..<(try reader.count()) {
                images.append(ImageEntry(path: try reader.string(), size: try reader.number(), digest: try reader.bytes()))
            }
            return .imageList(folder: folder, images: images)
        default: throw .malformed("unknown kind \(kind)")
        }
    }

    private struct Writer {
        var output: [UInt8] = []
        mutating func byte(_ value: UInt8) { output.append(value) }
        mutating func number(_ value: Int) {
            let value = UInt32(clamping: value)
            output += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
        }
        mutating func bytes(_ value: [UInt8]) { number(value.count); output += value }
        mutating func string(_ value: String) { bytes(Array(value.utf8)) }
    }

    private struct Reader {
        let input: [UInt8]
        init(bytes: [UInt8]) { input = bytes }
        var position = 0
        mutating func byte() throws(DecodingFailure) -> UInt8 {
            guard position < input.count else { throw .malformed("it ends early") }
            defer { position += 1 }
            return input[position]
        }
        mutating func number() throws(DecodingFailure) -> Int {
            var value = 0
            for _ in 0..<4 { value = value << 8 | Int(try byte()) }
            return value
        }
        /// A count of items that take at least a byte each: never more than the bytes left.
        mutating func count() throws(DecodingFailure) -> Int {
            let value = try number()
            guard value <= input.count - position else { throw .malformed("a count of \(value) with \(input.count - position) bytes left") }
            return value
        }
        mutating func bytes() throws(DecodingFailure) -> [UInt8] {
            let length = try count()
            defer { position += length }
            return Array(input[position..<(position + length)])
        }
        mutating func string() throws(DecodingFailure) -> String {
            guard let text = String(validating: try bytes(), as: UTF8.self) else { throw .malformed("a name that is not UTF-8") }
            return text
        }
    }
}
