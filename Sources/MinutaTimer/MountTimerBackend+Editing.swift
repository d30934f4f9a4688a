import Glibc
import MinutaStore

extension MountTimerBackend: TimerEditingBackend {
    public func remove(named name: String, in month: Month) throws(TimerError) {
        let path = mountPoint + "/records/" + month.yearSlashMonth + "/" + name
        guard unlink(path) == 0 else { throw Self.failure(path, "unlink", errno) }
    }

    public func put(_ bytes: [UInt8], named name: String, in month: Month) throws(TimerError) {
        try Self.save(bytes, to: mountPoint + "/records/" + month.yearSlashMonth + "/" + name, flags: O_WRONLY | O_CREAT | O_TRUNC)
    }

    public func writeTags(_ bytes: [UInt8]) throws(TimerError) {
        try Self.save(bytes, to: mountPoint + "/tags.json", flags: O_WRONLY | O_TRUNC)
    }
}
