import FileTreeInterface

/// How a tree is mounted.
public struct MountOptions: Sendable, Equatable {
    /// `-o ro`: the kernel refuses every change with `EROFS`.
    public var readOnly: Bool
    /// `-o allow_other`: other users may enter the mount (a non-root user needs `user_allow_other` in
    /// `/etc/fuse.conf`). Permissions are always checked by the kernel (`default_permissions`).
    public var allowOther: Bool
    /// Whether the command runs in the foreground. `FuseMount` never daemonizes; the command line does.
    public var foreground: Bool
    /// Further `-o` options passed to libfuse as they are (such as `noatime`).
    public var extra: [String]
    /// The source shown by `mount` and `df` (`fsname=`); the type is `fuse.minutafs`.
    public var fsName: String
    /// Whether `run()` handles SIGTERM, SIGINT and SIGHUP by unmounting cleanly. Only one mount per process
    /// can; tests that mount several trees turn it off and call `unmount()`.
    public var handlesSignals: Bool
    /// Seconds the kernel may trust names and attributes without asking. Long, because changes made
    /// underneath are invalidated explicitly (see `FileTree.setChangeHandler`).
    public var cacheTimeout: Double
    /// Threads answering the kernel's requests.
    public var workerThreads: Int
    /// Seconds between `unlink` of a file of the tree and its removal from the tree; a file saved at the
    /// same path in between (as `mv` from another file system does) is an update instead. 0 removes at once.
    public var removalDelay: Double
    /// Seconds a scratch file the tree `settles` (a name that is neither a temporary name nor the tree's
    /// own, such as `x.json.new`) waits after its last close before it goes to the tree; renamed before
    /// then, it was a write-then-rename save and never reaches the tree under its own name.
    public var settleDelay: Double
    /// Seconds a file the tree does not save empty (a record) stays in the mount, empty and unsaved, after
    /// it was created and closed with nothing written (`touch new.json`), so that the next `open` of the
    /// name finds it; then it is forgotten (see `FileTree.savesEmptyFile(atPath:)`).
    public var emptyFileLifetime: Double
    /// Seconds an unmount by request (`unmount()`, a stop signal) keeps answering the kernel after the
    /// mount point is detached, so that a file still open on the mount is closed with an answer: see
    /// `FuseMount.run()`. Serving ends sooner when the last file is closed.
    public var detachGrace: Double
    /// The folder (outside the tree, in the mount's state folder) where work the mount deferred after
    /// answering 0 is kept until it is done, so that a killed or unmounted mount loses none of it; the
    /// next mount with the same folder carries it out. nil keeps it in memory only. A read-only mount
    /// defers nothing and opens no journal.
    public var journalFolder: String?

    public init(
        readOnly: Bool = false,
        allowOther: Bool = false,
        foreground: Bool = false,
        extra: [String] = [],
        fsName: String = "minutafs",
        handlesSignals: Bool = true,
        cacheTimeout: Double = 60,
        workerThreads: Int = 4,
        removalDelay: Double = 2,
        settleDelay: Double = 3,
        emptyFileLifetime: Double = 30,
        detachGrace: Double = 2,
        journalFolder: String? = nil
    ) {
        self.readOnly = readOnly
        self.allowOther = allowOther
        self.foreground = foreground
        self.extra = extra
        self.fsName = fsName
        self.handlesSignals = handlesSignals
        self.cacheTimeout = cacheTimeout
        self.workerThreads = workerThreads
        self.removalDelay = removalDelay
        self.settleDelay = settleDelay
        self.emptyFileLifetime = emptyFileLifetime
        self.detachGrace = detachGrace
        self.journalFolder = journalFolder
    }

    /// The `-o` options given to libfuse.
    var libfuseOptions: [String] {
        var options = ["default_permissions", "fsname=" + Self.escaped(fsName), "subtype=minutafs"]
        if readOnly { options.append("ro") }
        if allowOther { options.append("allow_other") }
        options += extra.map(Self.escaped)
        return options
    }

    /// libfuse splits `-o` on commas; a backslash keeps one in a value.
    private static func escaped(_ option: String) -> String {
        option.replacing("\\", with: "\\\\").replacing(",", with: "\\,")
    }
}
