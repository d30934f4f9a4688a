import FileTreeInterface
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches the backing folder with inotify (the store root, `records/`, every year and month folder)
/// and calls `onChange` from its own thread, at most every `settle` seconds, after events stop for
/// a moment. New year folders are watched as they appear. The thread waits on the inotify descriptor
/// and on `stop` together, and ends (closing the descriptor) as soon as `stop` is signalled.
final class FolderWatcher: Sendable {
    private let root: String
    private let descriptor: Int32
    private let stop: EventSignal
    private let onChange: @Sendable () -> Void
    private let settleMilliseconds: Int32
    /// How long the thread lets events gather before it reads them again during a burst.
    private let gatherSeconds: Double

    /// Starts watching until `stop` is signalled. `nil` when inotify is not available; the caller
    /// then polls instead.
    @discardableResult
    init?(root: String, settle: Double = 0.1, stop: EventSignal, onChange: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        self.root = root
        self.descriptor = descriptor
        self.stop = stop
        self.onChange = onChange
        self.settleMilliseconds = Int32(settle * 1000)
        self.gatherSeconds = min(settle, 0.02)
        addWatches()
        let thread = Thread { [self] in self.loop() }
        thread.start()
    }

    private func addWatches() {
        var folders = [root, root + "/records"]
        if let years = try? BackingFiles.listDirectory(root + "/records") {
            for year in years where BackingFiles.status(root + "/records/" + year)?.isDirectory == true {
                folders.append(root + "/records/" + year)
                // Month folders hold images, whose conflict copies are cleaned up too.
                for month in (try? BackingFiles.listDirectory(root + "/records/" + year)) ?? []
                where BackingFiles.status(root + "/records/" + year + "/" + month)?.isDirectory == true {
                    folders.append(root + "/records/" + year + "/" + month)
                }
            }
        }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB)
        for folder in folders {
            _ = inotify_add_watch(descriptor, folder, mask)  // a folder already watched keeps its watch
        }
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        defer { close(descriptor) }
        while true {
            var waiting = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&waiting, 2, -1)
            if ready < 0 && errno != EINTR { return }
            if waiting[1].revents != 0 { return }
            guard ready > 0 else { continue }
            var sawEvent = false
            var foldersMayHaveAppeared = false
            // Drain events until none arrive for the settle time, so a burst gives one callback.
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            repeat {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    sawEvent = true
                    foldersMayHaveAppeared = foldersMayHaveAppeared || Self.namesNewFolder(buffer[..<count])
                    // Let the rest of a burst gather before reading again: a save through the mount makes five
                    // events (its temporary file created, closed, exchanged twice, the old version removed),
                    // and a thread waiting in `poll` is woken by each, inside the saving thread's system call
                    // (28 µs more for its `renameat2`, 38 µs for its `unlink`, measured). Events wait in
                    // the kernel's queue meanwhile; none is lost.
                    if stop.wait(seconds: gatherSeconds) { break }
                }
                poller.revents = 0
            } while poll(&poller, 1, settleMilliseconds) > 0 && !stop.isSignalled
            if sawEvent {
                // Listing every year and month folder again is for new folders only: a burst of saves
                // (files written and renamed) adds none.
                if foldersMayHaveAppeared { addWatches() }
                onChange()
            }
        }
    }

    /// Whether the events in `bytes` (whole `inotify_event` records, as one `read` returns them) may
    /// name a folder that is not watched yet: a folder created or moved in, or events lost to an
    /// overflowing queue. A record cut short counts as one.
    static func namesNewFolder(_ bytes: ArraySlice<UInt8>) -> Bool {
        let header = MemoryLayout<inotify_event>.size
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            guard bytes.endIndex - offset >= header else { return true }
            let (mask, nameLength) = bytes[offset...].withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: MemoryLayout<inotify_event>.offset(of: \.mask) ?? 4, as: UInt32.self),
                 Int(raw.loadUnaligned(fromByteOffset: MemoryLayout<inotify_event>.offset(of: \.len) ?? 12, as: UInt32.self)))
            }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { return true }
            offset += header + nameLength
        }
        return false
    }
}
