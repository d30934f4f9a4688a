import CZlib

/// Raw DEFLATE (RFC 1951, no zlib header) decompression through Debian's zlib.
///
/// One inflater serves every deflated column of a chunk: zlib's state is allocated once and reset
/// between streams, and each stream is inflated straight into the caller's buffer with `Z_FINISH`,
/// so that zlib needs no 32 KiB window for a stream that fits (a month document has a handful of
/// small deflated columns, and allocating zlib's state and window for each would be a tenth of
/// inflating them).
struct RawInflate: ~Copyable {
    /// The most a single column or change chunk may inflate to. Far above any real document,
    /// it keeps a hostile stream from allocating without bound.
    static let maximumOutputSize = 1 << 30

    /// zlib's stream keeps a pointer back to itself, so it lives at one address on the heap.
    private let stream: UnsafeMutablePointer<z_stream>
    private var isInitialized = false

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if isInitialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input` and returns what it held.
    static func decompress(_ input: ArraySlice<UInt8>, at offset: Int) throws(AutomergeError) -> [UInt8] {
        var inflater = RawInflate()
        var output: [UInt8] = []
        try inflater.inflate(input, appendingTo: &output, at: offset)
        return output
    }

    /// Inflates `input` (one whole DEFLATE stream; bytes after its end are ignored) onto the end of
    /// `output`. `offset` is where the input lies in the file, for errors.
    mutating func inflate(_ input: ArraySlice<UInt8>, appendingTo output: inout [UInt8], at offset: Int) throws(AutomergeError) {
        if isInitialized {
            guard inflateReset(stream) == Z_OK else {
                throw AutomergeError(.invalidDeflateStream, "zlib could not be reset", at: offset)
            }
        } else {
            guard inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw AutomergeError(.invalidDeflateStream, "zlib could not be initialised", at: offset)
            }
            isInitialized = true
        }
        let begin = output.count
        // Columns of automerge documents inflate to a few times their size.
        var room = max(256, min(input.count * 4, 1 << 20))
        var failure: AutomergeError?
        input.withUnsafeBufferPointer { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = UInt32(source.count)
            while true {
                var status: Int32 = Z_OK
                let produced = [UInt8](unsafeUninitializedCapacity: room) { target, count in
                    stream.pointee.next_out = target.baseAddress
                    stream.pointee.avail_out = UInt32(room)
                    status = CZlib.inflate(stream, Z_FINISH)
                    count = room - Int(stream.pointee.avail_out)
                }
                if output.isEmpty { output = produced } else { output.append(contentsOf: produced) }
                if status == Z_STREAM_END { return }
                if output.count - begin > Self.maximumOutputSize {
                    failure = AutomergeError(.invalidDeflateStream, "DEFLATE stream inflates past \(Self.maximumOutputSize) bytes", at: offset)
                    return
                }
                // Z_BUF_ERROR (or Z_OK) with all the room used: give it more room.
                guard status == Z_OK || status == Z_BUF_ERROR else {
                    failure = AutomergeError(.invalidDeflateStream, "corrupt DEFLATE stream", at: offset)
                    return
                }
                // With room left, zlib stopped because the input ran out before the stream's end.
                if produced.count < room {
                    failure = AutomergeError(.invalidDeflateStream, "DEFLATE stream is cut short", at: offset)
                    return
                }
                room = min(room * 2, 1 << 24)
            }
        }
        if let failure {
            output.removeLast(output.count - begin)
            throw failure
        }
    }
}
