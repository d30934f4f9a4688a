import AutomergeKit
import Glibc
import MinutaStore
import SystemPackage

/// Reading and writing whole Automerge document files for the commands, with failures that
/// name the file.
enum DocumentFile {
    /// The bytes of the file at `path`.
    ///
    /// - Throws: `CommandFailure` naming `path` when it is in a minutafs mount or cannot be opened
    ///   or read (a missing file, a folder, no permission).
    static func readBytes(atPath path: String) throws(CommandFailure) -> [UInt8] {
        // A mount shows JSON, not documents; its store's documents are what to give.
        try MountedPath.refuse(path, instead: .document)
        do {
            return try DocumentFileAccess.read(FilePath(path))
        } catch {
            throw CommandFailure(path: path, cause: Self.cause(error))
        }
    }

    /// The cause alone: the command line already names the file.
    static func cause(_ error: StoreError) -> String {
        if case .system(_, _, let code) = error { return String(cString: strerror(code.rawValue)) }
        if case .unloadableDocument(_, let reason) = error { return reason.description + "; it is left untouched" }
        return error.description
    }

    /// Reads and loads the document at `path`.
    ///
    /// - Throws: `CommandFailure` naming `path` when the file cannot be read or is not a valid
    ///   Automerge document.
    static func load(atPath path: String) throws(CommandFailure) -> Document {
        try load(readBytes(atPath: path), from: path)
    }

    /// Loads document `bytes` read from `path`. An empty file is not a document (a sync tool may
    /// still be writing it), so it is never taken for an empty one and written over.
    static func load(_ bytes: [UInt8], from path: String) throws(CommandFailure) -> Document {
        guard !bytes.isEmpty else { throw CommandFailure(path: path, cause: UnreadableReason.empty.description + "; it is left untouched") }
        let document: Document
        do {
            document = try Document.load(bytes)
        } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
        if document.hasPendingChanges {
            throw CommandFailure(path: path, cause: "it holds changes whose dependencies are missing; it is left untouched")
        }
        return document
    }

    /// The full save of `document`, checked to load back to the same heads before anything is written
    /// (SPEC 5a: a loadable file is never replaced by one that does not load).
    ///
    /// - Throws: `CommandFailure` naming `path` (the file the document is for) when the engine refuses
    ///   the save (changes whose times a document chunk cannot hold, named) or its bytes do not load.
    static func loadableSave(of document: inout Document, for path: String) throws(CommandFailure) -> [UInt8] {
        let saved: [UInt8]
        do { saved = try document.save() } catch {
            throw CommandFailure(path: path, cause: "cannot be saved: \(error); nothing was written")
        }
        do {
            let reloaded = try Document.load(saved)
            guard reloaded.heads == document.heads else {
                throw CommandFailure(path: path, cause: "its save loads back to other heads; nothing was written")
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(path: path, cause: "its save does not load back (\(error)); nothing was written")
        }
        return saved
    }

    /// Replaces the file at `path` with `bytes` atomically and durably (SPEC §5). A file already
    /// there that is not a document this minutafs can load is never written over (SPEC 5a).
    static func write(_ bytes: [UInt8], toPath path: String) throws(CommandFailure) {
        // Never write through a mount (SPEC 5b).
        try MountedPath.refuse(path, instead: .document)
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CommandFailure(path: path, cause: "not a regular file; it is left untouched")
            }
            let existing = try readBytes(atPath: path)
            do {
                _ = try load(existing, from: path)
            } catch {
                throw CommandFailure(path: path, cause: "exists and cannot be loaded (\(error.cause)); minutafs never writes over a document it cannot read: choose another output")
            }
        }
        do {
            try DocumentFileAccess.write(bytes, to: FilePath(path))
        } catch {
            throw CommandFailure(path: path, cause: error.description)
        }
    }
}
