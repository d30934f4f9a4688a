import Foundation
@testable import AutomergeKit
import Testing
import TestSupport

/// The loaders' caches of recent strings hand back a string they already made when the same bytes
/// come again. With 256 slots, many strings share a slot: whatever the order, each read must give
/// the string of its own bytes, never another one that was in its slot.
struct RecentStringCacheTests {
    /// 2,000 distinct strings of one length (ids, as a month's records have), then 500 of other
    /// lengths (0 to 15 bytes too, which values do not cache), each read several times in a shuffled
    /// order.
    static let strings: [String] = {
        var random = SeededGenerator(seed: 29)
        let ids = (0..<2_000).map { (index: Int) -> String in
            let scrambled: Int = (index &* 2_654_435_761) & 0xFFFF_FFFF_FFFF
            return String(format: "%08X-%04X-4%03X-A%03X-%012lX", index, index % 65_536, index % 4_096, (index * 7) % 4_096, scrambled)
        }
        let alphabet = Array("abcdéfgh→日本🇫🇷")
        let others = (0..<500).map { (index: Int) -> String in
            var characters: [Character] = []
            for _ in 0..<(index % 40) { characters.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)]) }
            return String(characters)
        }
        var all = ids + others
        all += all + all
        all.shuffle(using: &random)
        return all
    }()

    @Test("a value cache gives each string back as its own bytes")
    func valueCache() {
        var cache = StringValueCache()
        for string in Self.strings {
            let bytes = Array(string.utf8)
            #expect(cache.string(bytes, 0..<bytes.count) == string)
        }
    }

    @Test("a key cache gives each string back as its own bytes")
    func keyCache() throws {
        var cache = ColumnStringCache()
        for string in Self.strings {
            var encoded: [UInt8] = []
            encoded.appendPrefixed(Array(string.utf8))
            var reader = ByteReader(encoded)
            #expect(try cache.read(from: &reader).utf8 == Array(string.utf8))
            #expect(reader.isAtEnd)
        }
    }

    @Test("recent property names give each name its own index in the property table")
    func recentProperties() {
        var set = OperationSet()
        var recent = RecentProperties()
        var indexOfName: [String: Int] = [:]
        // The same storage comes back for a name read again (as the key cache hands it out), and
        // distinct storage for distinct names.
        var storage: [String: ColumnString] = [:]
        for string in Self.strings {
            let name = storage[string] ?? ColumnString(utf8: Array(string.utf8))
            storage[string] = name
            let index = recent.index(of: name, in: &set)
            if let known = indexOfName[string] {
                #expect(index == known, "\(string)")
            } else {
                indexOfName[string] = index
            }
            #expect(set.properties[index].utf8 == Array(string.utf8))
        }
        #expect(Set(indexOfName.values).count == indexOfName.count)
    }
}
