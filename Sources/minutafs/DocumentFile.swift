import AutomergeKit
import Glibc

/// Reading and writing whole Automerge document files for the commands, with failures that
/// name the file.
enum DocumentFile {
    /// The bytes of the file at `path`.
    ///
    /// - Throws: `CommandFailure` naming `path` when it cannot be opened or read (a missing file, a
    ///   folder, no permission).
    static func readBytes(atPath path: String) throws(CommandFailure) -> [UInt8] {
        do {
            return try readContents(atPath: path)
        } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
    }

    /// Reads and loads the document at `path`.
    ///
    /// - Throws: `CommandFailure` naming `path` when the file cannot be read or is not a valid
    ///   Automerge document.
    static func load(atPath path: String) throws(CommandFailure) -> Document {
        try load(readBytes(atPath: path), from: path)
    }

    /// Loads document `bytes` read from `path`.
    static func load(_ bytes: [UInt8], from path: String) throws(CommandFailure) -> Document {
        do {
            return try Document.load(bytes)
        } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
    }

    /// Replaces the file at `path` with `bytes` atomically and durably (SPEC §5).
    static func write(_ bytes: [UInt8], toPath path: String) throws(CommandFailure) {
        do {
            try AtomicFileWriter.write(bytes, toPath: path)
        } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
    }

    private static func readContents(atPath path: String) throws(SystemCallError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(action: nil, code: errno) }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                contents.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return contents
            } else if errno != EINTR {
                throw SystemCallError(action: nil, code: errno)
            }
        }
    }
}
