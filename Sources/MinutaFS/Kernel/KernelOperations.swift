import CFuse3

/// The table of C callbacks libfuse calls on its worker threads.
///
/// Each callback is a non-capturing closure that wraps the request and hands it to the `KernelServer`
/// found through the session's userdata. Built in a function (not at top level) so that no closure is
/// isolated to the main actor.
enum KernelOperations {
    static func make() -> fuse_lowlevel_ops {
        var operations = fuse_lowlevel_ops()
        operations.`init` = { userdata, connection in
            guard let connection else { return }
            if let userdata {
                let server = Unmanaged<KernelServer>.fromOpaque(userdata).takeUnretainedValue()
                server.connectionStarted(
                    kernelCanOpenFiles: connection.pointee.capable & UInt32(FUSE_CAP_NO_OPEN_SUPPORT) != 0,
                    protocolMinor: connection.pointee.proto_minor)
            }
            // open(O_TRUNC) arrives as one open with O_TRUNC, not a truncate then an open: the handle starts
            // empty and the tree gets one write.
            connection.pointee.want |= connection.pointee.capable & UInt32(FUSE_CAP_ATOMIC_O_TRUNC)
            // Writes must reach the handle as they happen, before flush: no write-back cache.
            connection.pointee.want &= ~UInt32(FUSE_CAP_WRITEBACK_CACHE)
        }
        operations.lookup = { request, parent, name in
            serveRequest(request) { server, request in server.lookUp(request, parent: parent, name: name) }
        }
        operations.forget = { request, inode, count in
            guard let request else { return }
            let reply = KernelRequest(request)
            guard let server = reply.server else { return reply.replyNone() }
            server.forget(reply, inode: inode, count: count)
        }
        operations.forget_multi = { request, count, forgets in
            guard let request else { return }
            let reply = KernelRequest(request)
            guard let server = reply.server else { return reply.replyNone() }
            server.forget(reply, UnsafeBufferPointer(start: forgets, count: forgets == nil ? 0 : count))
        }
        operations.getattr = { request, inode, _ in
            serveRequest(request) { server, request in server.attributes(request, inode: inode) }
        }
        operations.setattr = { request, inode, values, fields, info in
            serveRequest(request) { server, request in
                server.setAttributes(request, inode: inode, values: values, fields: fields, info: info)
            }
        }
        operations.access = { request, inode, mask in
            serveRequest(request) { server, request in server.checkAccess(request, inode: inode, mask: mask) }
        }
        operations.statfs = { request, _ in
            serveRequest(request) { server, request in server.fileSystemStatus(request) }
        }
        operations.open = { request, inode, info in
            serveRequest(request) { server, request in server.open(request, inode: inode, info: info) }
        }
        operations.create = { request, parent, name, mode, info in
            serveRequest(request) { server, request in
                server.create(request, parent: parent, name: name, mode: mode, info: info)
            }
        }
        operations.read = { request, inode, size, offset, info in
            serveRequest(request) { server, request in
                server.read(request, inode: inode, size: size, offset: offset, info: info)
            }
        }
        operations.write = { request, _, bytes, size, offset, info in
            serveRequest(request) { server, request in
                server.write(request, bytes: bytes, size: size, offset: offset, info: info)
            }
        }
        operations.flush = { request, _, info in
            serveRequest(request) { server, request in server.save(request, info: info, isFlush: true) }
        }
        operations.fsync = { request, _, _, info in
            serveRequest(request) { server, request in server.save(request, info: info, isFlush: false) }
        }
        operations.release = { request, _, info in
            serveRequest(request) { server, request in server.release(request, info: info) }
        }
        operations.opendir = { request, inode, info in
            serveRequest(request) { server, request in server.openDirectory(request, inode: inode, info: info) }
        }
        operations.readdir = { request, inode, size, offset, info in
            serveRequest(request) { server, request in
                server.readDirectory(request, inode: inode, size: size, offset: offset, info: info, withAttributes: false)
            }
        }
        operations.readdirplus = { request, inode, size, offset, info in
            serveRequest(request) { server, request in
                server.readDirectory(request, inode: inode, size: size, offset: offset, info: info, withAttributes: true)
            }
        }
        operations.releasedir = { request, _, info in
            serveRequest(request) { server, request in server.releaseDirectory(request, info: info) }
        }
        operations.fsyncdir = { request, inode, _, _ in
            serveRequest(request) { server, request in server.syncDirectory(request, inode: inode) }
        }
        operations.mkdir = { request, parent, name, _ in
            serveRequest(request) { server, request in server.makeDirectory(request, parent: parent, name: name) }
        }
        operations.rmdir = { request, parent, name in
            serveRequest(request) { server, request in server.removeDirectory(request, parent: parent, name: name) }
        }
        operations.unlink = { request, parent, name in
            serveRequest(request) { server, request in server.unlink(request, parent: parent, name: name) }
        }
        // Symbolic links, FIFOs, device nodes and hard links cannot be made here: EROFS in read-only
        // views, EPERM elsewhere (not ENOSYS, which tools read as a broken file system).
        operations.symlink = { request, _, parent, name in
            serveRequest(request) { server, request in server.makeSpecialNode(request, parent: parent, name: name) }
        }
        operations.mknod = { request, parent, name, _, _ in
            serveRequest(request) { server, request in server.makeSpecialNode(request, parent: parent, name: name) }
        }
        operations.link = { request, _, newParent, newName in
            serveRequest(request) { server, request in server.makeSpecialNode(request, parent: newParent, name: newName) }
        }
        operations.rename = { request, parent, name, newParent, newName, flags in
            serveRequest(request) { server, request in
                server.rename(request, parent: parent, name: name, newParent: newParent, newName: newName, flags: flags)
            }
        }
        operations.getxattr = { request, inode, name, size in
            serveRequest(request) { server, request in server.extendedAttribute(request, inode: inode, name: name, size: size) }
        }
        operations.listxattr = { request, inode, size in
            serveRequest(request) { server, request in server.extendedAttributeNames(request, inode: inode, size: size) }
        }
        return operations
    }
}

/// Wraps the raw request and passes it to the server; without a server it is answered with `EIO`.
/// (A free function: a static one would be captured through `Self` and could not be called from a C
/// function pointer.)
private func serveRequest(_ raw: fuse_req_t?, _ body: (KernelServer, consuming KernelRequest) -> Void) {
    guard let raw else { return }
    let request = KernelRequest(raw)
    guard let server = request.server else { return }
    body(server, request)
}
