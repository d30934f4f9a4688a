import AutomergeKit
import Foundation
import MinutaStore

/// The two roles of a `minutafs sync`: the side that started it drives (``run(summary:)``), the
/// serving side answers (``serve()``). Every message received is applied and the document saved
/// durably before the next frame goes out, so a connection cut anywhere leaves both stores with
/// whole documents, and the next sync, starting from the states kept, completes the work.
struct SyncSession {
    var side: StoreSyncSide
    var channel: SyncFrameChannel
    /// `host:store` of this side, sent in the hello.
    let identity: String
    /// Writes a progress line (nil: none).
    var progress: ((String) -> Void)?

    enum Failure: Error, CustomStringConvertible {
        case protocolError(String)
        case remote(String)
        var description: String {
            switch self {
            case .protocolError(let what): "the other side did not follow the protocol: \(what)"
            case .remote(let why): "the other side stopped: \(why)"
            }
        }
    }

    /// Sends a frame and reads the answer.
    private mutating func exchange(_ frame: SessionFrame, summary: inout SyncSummary) throws -> SessionFrame {
        try channel.send(frame.encoded)
        summary.roundTrips += 1
        guard let answer = try channel.receive() else {
            throw Failure.protocolError("the connection closed before an answer")
        }
        let decoded = try SessionFrame.decode(answer)
        if case .failure(let why) = decoded { throw Failure.remote(why) }
        return decoded
    }

    /// The side that started the sync: hello, every document, the images, done.
    mutating func run(dryRun: Bool, stateFolder: (String) -> String?, summary: inout SyncSummary) throws {
        let documents = try side.documentPaths()
        let images = try side.imageMonths()
        let hello = try exchange(.hello(peer: identity, dryRun: dryRun, documents: documents, images: images.summaries), summary: &summary)
        guard case .hello(let peer, _, let theirDocuments, let theirMonths) = hello else {
            throw Failure.protocolError("no hello")
        }
        side = side.with(stateFolder: stateFolder(peer), dryRun: dryRun)
        let all = Set(documents).union(theirDocuments.filter(StoreSyncSide.isDocumentPath)).sorted()
        summary.documentCount = all.count
        for (index, path) in all.enumerated() {
            progress?("syncing documents: \(index + 1)/\(all.count) \(path)")
            try syncDocument(path, summary: &summary)
        }
        // Only the months whose image summaries differ are listed in full and compared.
        let mineByFolder = Dictionary(images.summaries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByFolder = Dictionary(theirMonths.filter { StoreSyncSide.isImageFolder($0.path) }.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for folder in Set(mineByFolder.keys).union(theirsByFolder.keys).sorted() where mineByFolder[folder] != theirsByFolder[folder] {
            var theirs: [SessionFrame.ImageEntry] = []
            if theirsByFolder[folder] != nil {
                let answer = try exchange(.imageListRequest(folder: folder), summary: &summary)
                guard case .imageList(_, let listed) = answer else { throw Failure.protocolError("no image list for \(folder)") }
                theirs = listed.filter { StoreSyncSide.isImagePath($0.path) && $0.path.hasPrefix(folder + "/") }
            }
            try syncImages(mine: images.byFolder[folder] ?? [], theirs: theirs, peer: peer, summary: &summary)
        }
        let done = try exchange(.done(documentsChanged: 0), summary: &summary)
        guard case .done(let changed) = done else { throw Failure.protocolError("no done") }
        summary.reportedChangedThere = changed
        summary.bytesSent = channel.bytesSent
        summary.bytesReceived = channel.bytesReceived
    }

    private mutating func syncDocument(_ path: String, summary: inout SyncSummary) throws {
        let initial = side.syncState(for: path)
        let shortcut = side.shortcut(for: path)
        // Unchanged since the last sync (the same file, the same state, no copy waiting): the first
        // message is the one kept, and the document is loaded only when the answer brings something.
        var answered: SyncMessage?
        // No copy waiting, then the file's identity (a copy merged meanwhile is in the file by then).
        if let shortcut, side.waitingCopies(of: path).isEmpty, let identity = side.documentIdentity(path),
           let kept = shortcut.answer(for: SyncShortcut.key(identity: identity, state: initial.encoded, incoming: [])),
           let sent = try? SyncMessage.decode(kept) {
            let answer = try exchange(.sync(path: path, message: kept), summary: &summary)
            if case .skipped(_, let reason) = answer {
                summary.documentsSkipped.append("\(path): \(reason) (there)")
                return
            }
            guard case .sync(let answeredPath, let reply) = answer, answeredPath == path else {
                throw Failure.protocolError("no sync answer for \(path)")
            }
            if reply.isEmpty {
                summary.documentsNotLoaded += 1
                return
            }
            let message = try SyncMessage.decode(reply)
            // The peer is at the same heads, has nothing for us and needs nothing: in sync, the
            // state stays as it is.
            if message.changes.isEmpty && message.need.isEmpty && message.heads == sent.heads && initial.sharedHeads == message.heads {
                summary.documentsNotLoaded += 1
                return
            }
            answered = message
        }
        let loaded: (document: Document, existed: Bool, copiesMerged: [String], identity: BackingFiles.Identity?)
        do { loaded = try side.loadDocument(path) } catch {
            summary.documentsSkipped.append("\(error) (here)")
            return
        }
        var document = loaded.document
        var state = initial
        var first = true
        var sentChanges = false
        var saved = false
        func receive(_ message: SyncMessage) throws {
            let before = document.heads
            try document.receiveSyncMessage(message, state: &state)
            if document.heads != before {
                try side.saveDocument(&document, at: path)
                saved = true
                if summary.documentsChangedHere.last != path { summary.documentsChangedHere.append(path) }
            }
        }
        if let answered {
            // The state as the kept message left it (the same message comes out), then the answer.
            _ = document.generateSyncMessage(&state)
            first = false
            try receive(answered)
        }
        while true {
            let message = document.generateSyncMessage(&state)
            if message == nil && !first { break }
            first = false
            if let message, !message.changes.isEmpty { sentChanges = true }
            let answer = try exchange(.sync(path: path, message: message?.encoded ?? []), summary: &summary)
            if case .skipped(_, let reason) = answer {
                summary.documentsSkipped.append("\(path): \(reason) (there)")
                return
            }
            guard case .sync(let answeredPath, let reply) = answer, answeredPath == path else {
                throw Failure.protocolError("no sync answer for \(path)")
            }
            if reply.isEmpty { break }
            try receive(try SyncMessage.decode(reply))
        }
        if sentChanges { summary.documentsChangedThere.append(path) }
        try side.saveSyncState(state, for: path)
        // What the next sync sends first, if the file is still the one read: kept only when the
        // document is the file's (nothing saved or merged in from a copy).
        if let shortcut, !saved, loaded.copiesMerged.isEmpty, let identity = loaded.identity {
            var next = (try? SyncState.decode(state.encoded)) ?? SyncState()
            if let message = document.generateSyncMessage(&next) {
                shortcut.record(message.encoded, for: SyncShortcut.key(identity: identity, state: state.encoded, incoming: []))
            }
        }
    }

    private mutating func syncImages(mine: [SessionFrame.ImageEntry], theirs: [SessionFrame.ImageEntry], peer: String, summary: inout SyncSummary) throws {
        let mineByPath = Dictionary(mine.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByPath = Dictionary(theirs.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let day = Self.today()
        for path in Set(mineByPath.keys).union(theirsByPath.keys).sorted() {
            let local = mineByPath[path], remote = theirsByPath[path]
            if let local, let remote, local.digest == remote.digest { continue }
            if remote != nil {
                let answer = try exchange(.imageRequest(path: path), summary: &summary)
                guard case .image(_, let bytes) = answer else { throw Failure.protocolError("no image for \(path)") }
                if let written = try side.keepImage(bytes, at: path, from: peer, day: day) {
                    if written == path { summary.imagesCopiedHere.append(path) } else { summary.imageConflicts.append("\(written) (here)") }
                }
            }
            if local != nil {
                let bytes = try side.readImage(path)
                let answer = try exchange(.image(path: path, bytes: bytes), summary: &summary)
                guard case .imageStored(_, let written) = answer else { throw Failure.protocolError("no answer for image \(path)") }
                if written == path { summary.imagesCopiedThere.append(path) } else if !written.isEmpty { summary.imageConflicts.append("\(written) (there)") }
            }
        }
    }

    static func today() -> String {
        let now = Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// The document a serving side is syncing: loaded, or answered from its ``SyncShortcut``.
    private struct Served {
        var path: String
        var document: Document?
        var state: SyncState
        /// The state at the start and the first message received: the shortcut's key.
        var initial: SyncState
        var firstIncoming: [UInt8]
        var firstReply: [UInt8] = []
        var frames = 0
        var saved = false
        var copiesMerged: [String] = []
        var identity: BackingFiles.Identity?
    }

    /// The serving side: answers every frame until done or the end of the input. `prepare` runs on
    /// the hello, told whether the peer asks for a dry run, before this side's documents are listed.
    mutating func serve(stateFolder: (String) -> String?, prepare: (Bool) throws -> Void = { _ in }) throws {
        var current: Served?
        var peer = "peer"
        var changed = Set<String>()
        var dryRun = false
        var imagesByFolder: [String: [SessionFrame.ImageEntry]] = [:]
        func finishCurrent() throws {
            guard let served = current else { return }
            current = nil
            guard served.document != nil else { return }  // answered from the shortcut: nothing changed
            try side.saveSyncState(served.state, for: served.path)
            // One exchange that changed neither the document nor the state: answered without loading next time.
            if served.frames == 1, !served.saved, served.copiesMerged.isEmpty, served.state.encoded == served.initial.encoded,
               let identity = served.identity, let shortcut = side.shortcut(for: served.path) {
                shortcut.record(served.firstReply, for: SyncShortcut.key(identity: identity, state: served.initial.encoded, incoming: served.firstIncoming))
            }
        }
        /// Loads the document of `served` (answered from the shortcut so far), bringing its state to
        /// where the first exchange left it.
        func load(_ served: inout Served) throws {
            let loaded = try side.loadDocument(served.path)
            var document = loaded.document
            var state = served.initial
            if !served.firstIncoming.isEmpty { try document.receiveSyncMessage(SyncMessage.decode(served.firstIncoming), state: &state) }
            _ = document.generateSyncMessage(&state)
            served.document = document
            served.state = state
            served.copiesMerged = loaded.copiesMerged
            served.identity = loaded.identity
        }
        defer { try? finishCurrent() }
        while let bytes = try channel.receive() {
            let frame: SessionFrame
            do { frame = try SessionFrame.decode(bytes) } catch {
                try channel.send(SessionFrame.failure("\(error)").encoded)
                throw error
            }
            do {
                switch frame {
                case .hello(let name, let wantsDryRun, _, _):
                    peer = name
                    dryRun = wantsDryRun
                    side = side.with(stateFolder: stateFolder(peer), dryRun: dryRun)
                    try prepare(dryRun)
                    let months = try side.imageMonths()
                    imagesByFolder = months.byFolder
                    try channel.send(SessionFrame.hello(peer: identity, dryRun: dryRun, documents: try side.documentPaths(), images: months.summaries).encoded)
                case .imageListRequest(let folder):
                    guard StoreSyncSide.isImageFolder(folder) else { throw Failure.protocolError("\(folder) is not a month's image folder") }
                    try channel.send(SessionFrame.imageList(folder: folder, images: imagesByFolder[folder] ?? []).encoded)
                case .sync(let path, let message):
                    guard StoreSyncSide.isDocumentPath(path) else { throw Failure.protocolError("\(path) is not a document of a store") }
                    if current?.path != path {
                        try finishCurrent()
                        let initial = side.syncState(for: path)
                        var served = Served(path: path, document: nil, state: initial, initial: initial, firstIncoming: message)
                        if let shortcut = side.shortcut(for: path), side.waitingCopies(of: path).isEmpty, let identity = side.documentIdentity(path),
                           let reply = shortcut.answer(for: SyncShortcut.key(identity: identity, state: initial.encoded, incoming: message)) {
                            served.frames = 1
                            current = served
                            try channel.send(SessionFrame.sync(path: path, message: reply).encoded)
                            continue
                        }
                        do {
                            let loaded = try side.loadDocument(path)
                            served.document = loaded.document
                            served.copiesMerged = loaded.copiesMerged
                            served.identity = loaded.identity
                        } catch {
                            try channel.send(SessionFrame.skipped(path: path, reason: "\(error)").encoded)
                            continue
                        }
                        current = served
                    } else if var served = current, served.document == nil {
                        // A second frame after an answer from the shortcut: the document is needed now.
                        do { try load(&served) } catch {
                            current = nil
                            try channel.send(SessionFrame.skipped(path: path, reason: "\(error)").encoded)
                            continue
                        }
                        current = served
                    }
                    guard var open = current, var document = open.document else { continue }
                    // The only reference while it changes (a second one would copy the whole document).
                    current = nil
                    open.document = nil
                    if !message.isEmpty {
                        let before = document.heads
                        try document.receiveSyncMessage(SyncMessage.decode(message), state: &open.state)
                        if document.heads != before {
                            try side.saveDocument(&document, at: path)
                            open.saved = true
                            changed.insert(path)
                        }
                    }
                    let reply = document.generateSyncMessage(&open.state)?.encoded ?? []
                    open.document = document
                    open.frames += 1
                    if open.frames == 1 { open.firstReply = reply }
                    current = open
                    try channel.send(SessionFrame.sync(path: path, message: reply).encoded)
                case .imageRequest(let path):
                    guard StoreSyncSide.isImagePath(path) else { throw Failure.protocolError("\(path) is not an image of a store") }
                    try channel.send(SessionFrame.image(path: path, bytes: try side.readImage(path)).encoded)
                case .image(let path, let bytes):
                    guard StoreSyncSide.isImagePath(path) else { throw Failure.protocolError("\(path) is not an image of a store") }
                    let written = try side.keepImage(bytes, at: path, from: peer, day: Self.today())
                    try channel.send(SessionFrame.imageStored(path: path, writtenAs: written ?? "").encoded)
                case .done:
                    try finishCurrent()
                    try channel.send(SessionFrame.done(documentsChanged: changed.count).encoded)
                    return
                case .skipped, .imageStored, .failure, .imageList:
                    throw Failure.protocolError("an answer where a request belongs")
                }
            } catch let error as SyncFrameChannel.Failure {
                throw error
            } catch {
                try? channel.send(SessionFrame.failure("\(side.storePath): \(error)").encoded)
                throw error
            }
        }
    }
}
