import CZlib

/// Raw DEFLATE (RFC 1951, no zlib header) decompression through Debian's zlib.
enum RawInflate {
    /// The most a single column or change chunk may inflate to. Far above any real document,
    /// it keeps a hostile stream from allocating without bound.
    static let maximumOutputSize = 1 << 30

    static func decompress(_ input: ArraySlice<UInt8>, at offset: Int) throws(AutomergeError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw AutomergeError(.invalidDeflateStream, "zlib could not be initialised", at: offset)
        }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(4096, min(input.count * 4, 1 << 20)))
        var status: Int32 = Z_OK
        var failure: AutomergeError?
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END {
                    failure = AutomergeError(.invalidDeflateStream, "corrupt DEFLATE stream", at: offset)
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > maximumOutputSize {
                    failure = AutomergeError(.invalidDeflateStream, "DEFLATE stream inflates past \(maximumOutputSize) bytes", at: offset)
                    return
                }
                if status == Z_OK && produced == 0 && stream.avail_in == 0 {
                    failure = AutomergeError(.invalidDeflateStream, "DEFLATE stream is cut short", at: offset)
                    return
                }
            } while status != Z_STREAM_END
        }
        if let failure { throw failure }
        return output
    }
}
