import Crypto
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The names of the store's own temporary files (an atomic write's first half):
/// `.NAME.minutafs-MACHINE-RANDOM.tmp` beside NAME, hidden, never shown by the mount.
///
/// - MACHINE (8 hex digits) names the machine that wrote it (from `/etc/machine-id`), so a mount or a
///   merge, which holds the store's lock, knows a leftover of its own machine at once: no process of
///   this machine can be writing it. One from another machine (carried in by the sync tool, or on a
///   folder two machines share) is left for ten minutes, in case it is still being written.
/// - A name too long for NAME_MAX with NAME in it becomes `.minutafs-MACHINE-RANDOM.tmp`: every name
///   a file may have can be written atomically.
/// - Names of the earlier form `.NAME.minutafs-RANDOM.tmp` are still recognised (left by a version
///   before the machine tag) and handled as another machine's.
public enum TemporaryFileName {
    /// The longest name a folder entry may have on Linux file systems (NAME_MAX).
    static let maximumNameLength = 255

    /// This machine's tag: the first 8 hex digits of the SHA-256 of its machine id (or host name).
    public static let machineTag: String = {
        var identity = ""
        for file in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let bytes = try? BackingFiles.read(file, limit: 4096, followingSymbolicLinks: true), !bytes.isEmpty {
                identity = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
                if !identity.isEmpty { break }
            }
        }
        if identity.isEmpty {
            var buffer = [CChar](repeating: 0, count: 256)
            if gethostname(&buffer, buffer.count) == 0 {
                identity = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return SHA256.hash(data: Array(("minutafs-machine:" + identity).utf8)).prefix(4).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }()

    /// The temporary name for a file named `name`, with the random part `random` (hex digits).
    public static func make(for name: String, random: String) -> String {
        let tail = ".minutafs-" + machineTag + "-" + random + ".tmp"
        let full = "." + name + tail
        return full.utf8.count <= maximumNameLength ? full : tail
    }

    /// What a temporary name says of itself: the name it was written for (nil when it was too long to
    /// carry it) and whether this machine wrote it. Nil when `name` is not one of ours.
    public static func parse(_ name: String) -> (target: String?, isOwnMachine: Bool)? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let marker = name.ranges(of: ".minutafs-").last else { return nil }
        let middle = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -4)]
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        let isHex = { (part: Substring, lengths: ClosedRange<Int>) in
            lengths.contains(part.utf8.count) && part.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        }
        let isOwnMachine: Bool
        switch parts.count {
        case 1 where isHex(parts[0], 1...16): isOwnMachine = false
        case 2 where isHex(parts[0], 8...8) && isHex(parts[1], 1...16): isOwnMachine = parts[0] == machineTag
        default: return nil
        }
        let target = marker.lowerBound > name.startIndex ? String(name[name.index(after: name.startIndex)..<marker.lowerBound]) : nil
        return (target?.isEmpty == false ? target : nil, isOwnMachine)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let isSpace = { (character: Character) in character.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
