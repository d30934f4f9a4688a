import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files that are not regular files, put where a document or an image belongs (SPEC 5b: "No open in
/// the store ever blocks"); `runBounded` runs a program against them without hanging the test.
public enum SpecialFile: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A named pipe: opening it for reading waits for a writer, unless opened non-blocking.
    case fifo
    /// A Unix domain socket: `open` fails with ENXIO.
    case socket
    /// The character device 1,3 (`/dev/null`'s numbers): opens and reads as empty.
    case device

    public var description: String { rawValue }

    /// Device 1,3 as `makedev(1, 3)` packs it (glibc's `makedev` is a macro Swift does not import):
    /// major in bits 8-19, minor in bits 0-7, for numbers this small.
    private static let nullDeviceNumber: dev_t = 1 << 8 | 3

    /// Makes one at `path` (nothing may be there).
    public func make(at path: String) throws {
        switch self {
        case .fifo:
            guard mkfifo(path, 0o644) == 0 else { throw FixtureError("mkfifo \(path): \(String(cString: strerror(errno)))") }
        case .device:
            guard mknod(path, S_IFCHR | 0o644, Self.nullDeviceNumber) == 0 else { throw FixtureError("mknod \(path): \(String(cString: strerror(errno)))") }
        case .socket:
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw FixtureError("\(path): too long for a socket") }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw FixtureError("bind \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// Replaces the file at `path` with one of these.
    public func replace(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try make(at: path)
    }

    /// Lets a process blocked opening the FIFO at `path` go on: opening it for reading and writing never
    /// waits (Linux), and counts as the writer a blocked reader waits for.
    public static func releaseFIFO(at path: String) {
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { close(descriptor) }
    }
}
