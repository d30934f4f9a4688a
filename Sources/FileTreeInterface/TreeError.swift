import SystemPackage

/// Why the tree refused an operation: the error number the program that asked gets back, and for the
/// log, the tree's own words.
///
/// The tree says the number itself (a store's failed system call passes its `Errno` through): the mount
/// never translates. The named errors below are the ones the mount itself looks for; a `catch` of one
/// matches any error with its number, whatever the reason.
public struct TreeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the kernel returns to the program.
    public var code: Errno
    /// Why, in words, for the log (a refused save's reason is also where the tree shows its errors).
    public var reason: String?

    public init(_ code: Errno, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    public static let notFound = TreeError(.noSuchFileOrDirectory)
    public static let notDirectory = TreeError(.notDirectory)
    public static let isDirectory = TreeError(.isDirectory)
    public static let alreadyExists = TreeError(.fileExists)
    public static let notEmpty = TreeError(.directoryNotEmpty)
    public static let readOnly = TreeError(.readOnlyFileSystem)
    public static let noSpace = TreeError(.noSpace)
    public static let permissionDenied = TreeError(.permissionDenied)
    /// The tree does not do this at all.
    public static let notSupported = TreeError(.notSupported)
    /// The tree cannot do this as one rename (a program such as `mv` then copies and deletes).
    public static let crossDevice = TreeError(.improperLink)
    /// The file would be larger than the tree takes (see ``FileTree/maximumFileSize(atPath:)``).
    public static let fileTooLarge = TreeError(.fileTooLarge)

    /// `EINVAL`: the written bytes are not content the tree accepts (broken JSON, a wrong type…). The tree
    /// has already recorded why.
    public static func invalidContent(_ reason: String) -> TreeError { TreeError(.invalidArgument, reason: reason) }

    /// `EIO`: what holds the tree failed.
    public static func io(_ reason: String) -> TreeError { TreeError(.ioError, reason: reason) }

    /// `catch .notFound`: the same error number, whatever the reason.
    public static func ~= (pattern: TreeError, error: TreeError) -> Bool { pattern.code == error.code }

    public var description: String {
        guard let reason else { return code.description }
        return "\(code.description): \(reason)"
    }
}
