import Glibc

/// Sync messages over a pair of file descriptors, as amref's `sync-serve` frames them: a 4-byte
/// big-endian length, then that many bytes of one message; length 0 stands for no message.
struct SyncFrameChannel {
    enum Failure: Error, CustomStringConvertible {
        /// The input ended inside a frame (`needed` more bytes were expected).
        case truncated(needed: Int)
        /// A frame longer than ``SyncFrameChannel/maximumFrame``.
        case tooLong(Int)
        /// read(2) or write(2) failed with this errno.
        case system(String, Int32)

        var description: String {
            switch self {
            case .truncated(let needed): "the connection ended inside a frame (\(needed) more bytes expected)"
            case .tooLong(let length): "a frame of \(length) bytes is longer than the 1 GiB a message may be"
            case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// Messages are at most a whole document; documents are at most 1 GiB (SPEC's file limit).
    static let maximumFrame = 1 << 30

    let input: Int32
    let output: Int32
    /// Bytes read and written, frame headers included.
    private(set) var bytesReceived = 0
    private(set) var bytesSent = 0

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// The next frame: nil at the end of the input (between frames), `[]` for a length-0 frame.
    mutating func receive() throws(Failure) -> [UInt8]? {
        guard let header = try readExactly(4, endAllowed: true) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length <= Self.maximumFrame else { throw .tooLong(length) }
        bytesReceived += 4
        guard length > 0 else { return [] }
        guard let body = try readExactly(length, endAllowed: false) else { throw .truncated(needed: length) }
        bytesReceived += length
        return body
    }

    /// Sends one frame (`nil` or empty: a length-0 frame).
    mutating func send(_ message: [UInt8]?) throws(Failure) {
        let body = message ?? []
        let length = UInt32(truncatingIfNeeded: body.count)
        var frame: [UInt8] = [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
        frame += body
        var offset = 0
        while offset < frame.count {
            let written = frame.withUnsafeBytes { raw in raw.baseAddress.map { write(output, $0 + offset, frame.count - offset) } ?? 0 }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system("write", errno)
            }
            offset += written
        }
        bytesSent += frame.count
    }

    private func readExactly(_ count: Int, endAllowed: Bool) throws(Failure) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { read(input, $0 + filled, count - filled) } ?? 0 }
            if got < 0 {
                if errno == EINTR { continue }
                throw .system("read", errno)
            }
            if got == 0 {
                if filled == 0 && endAllowed { return nil }
                throw .truncated(needed: count - filled)
            }
            filled += got
        }
        return buffer
    }
}
