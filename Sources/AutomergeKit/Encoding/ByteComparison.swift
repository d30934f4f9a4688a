/// Byte-for-byte equality of two buffers, eight bytes at a time: the generic `elementsEqual`
/// compares one element per step through the iterator protocol, and the string caches of a load
/// compare a candidate with the bytes read for every key and string value.
enum ByteComparison {
    static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
        let leftBytes = UnsafeRawPointer(leftBase), rightBytes = UnsafeRawPointer(rightBase)
        var offset = 0
        while offset + 8 <= left.count {
            if leftBytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rightBytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < left.count {
            if leftBase[offset] != rightBase[offset] { return false }
            offset += 1
        }
        return true
    }
}
