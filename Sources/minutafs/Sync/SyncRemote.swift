import Foundation
import Glibc

/// Where the other store of a `minutafs sync` is, and the connection to the minutafs serving it.
enum SyncRemote: Equatable {
    /// Another store folder on this machine: this binary serves it (`minutafs sync --serve PATH`).
    case folder(String)
    /// `[user@]host:PATH`: `ssh` runs `minutafs sync --serve PATH` there.
    case ssh(destination: String, path: String)
    /// Frames on standard input and output: whatever is at the other end serves.
    case standardStreams

    /// `-`; `[user@]host:PATH` (a colon before any slash, as rsync and scp tell them apart: `./a:b`
    /// is a folder); else a folder.
    init(_ text: String) {
        if text == "-" {
            self = .standardStreams
        } else if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/"), colon != text.startIndex {
            self = .ssh(destination: String(text[..<colon]), path: String(text[text.index(after: colon)...]))
        } else {
            self = .folder(text)
        }
    }

    /// One word for the remote shell: `'PATH'` with each `'` as `'\''`, so that ssh's remote shell
    /// neither splits nor expands it (an empty path stays an empty word).
    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The program and arguments that serve the remote, nil for standard streams.
    func serverCommand(remoteMinutafs: String) -> [String]? {
        switch self {
        case .standardStreams:
            return nil
        case .folder(let path):
            return [Self.ownExecutable(), "sync", "--serve", path]
        case .ssh(let destination, let path):
            // ssh joins its arguments with spaces for the remote shell: quote each one.
            let ssh = ProcessInfo.processInfo.environment["MINUTAFS_SSH"].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh"
            return [ssh, "-e", "none", "--", destination,
                    [remoteMinutafs, "sync", "--serve", path].map(Self.shellQuoted).joined(separator: " ")]
        }
    }

    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
