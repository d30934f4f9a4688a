import FileTreeInterface

/// The version of a file of the tree that a rename is replacing, kept for the inode the kernel knows it by.
///
/// A save by rename (`os.replace`, VS Code, gedit: a temporary file, then `rename` over the file) gives
/// the name a new inode, and the kernel keeps the old one for every program that resolved the name
/// just before: those opening it, those holding it open, those reading it. On a disk that inode keeps
/// its old bytes. Here, without this copy, it had nothing: its path is gone, so `open` failed with
/// `ENOENT` and a handle that had not read yet read nothing, or (during the tree's write, while the name
/// still stood for it) read the *new* bytes under the *old* size the kernel had cached, cut there.
///
/// So before the tree's write, the mount reads the file's bytes and attributes once and the old inode
/// answers `getattr`, `open` and `read` from them (and its handles that had read nothing are given
/// them) until the kernel forgets it. The name shows the old version, whole, until the rename's reply
/// moves it to the new inode, whose caches are dropped before that reply.
struct RetainedVersion {
    var contents: [UInt8]
    var attributes: TreeAttributes
}
