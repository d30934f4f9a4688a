import Foundation
import MinutaStore

extension MountTimerBackend {
    /// Hands `request` to the mount: written to `.minutafs/timer`, fsynced (the mount carries out the
    /// whole action then, and has saved it when fsync returns), and the answer read back from the
    /// same handle.
    public func perform(_ request: TimerRequest) throws(TimerError) -> TimerAnswer {
        let path = mountPoint + "/.minutafs/timer"
        let bytes: [UInt8]
        do { bytes = Array(try JSONEncoder().encode(request)) } catch { throw .storeFailed(file: path, reason: "the request could not be written: \(error)") }
        let descriptor = open(path, O_RDWR | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            let hint = code == ENOENT ? "; the mount is of an older minutafs: unmount it and mount it again"
                : code == EROFS ? "; the store is mounted read-only" : ""
            throw .storeFailed(file: path, reason: "cannot be opened (\(String(cString: strerror(code))))\(hint)")
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, "write", errno)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw Self.failure(path, "fsync", errno) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(answer.count)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, "read", errno)
            }
            if count == 0 { break }
            answer += buffer[0..<count]
        }
        do { return try JSONDecoder().decode(TimerAnswer.self, from: Data(answer)) } catch {
            throw .storeFailed(file: path, reason: "the mount's answer is not one: \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
    }

    /// The bytes of `.minutafs/NAME` (`now.json`, `now.txt`).
    public func controlFile(_ name: String) throws(TimerError) -> [UInt8] {
        try Self.read(mountPoint + "/.minutafs/" + name)
    }
}
