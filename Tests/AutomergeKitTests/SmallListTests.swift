@testable import AutomergeKit
import Testing

/// `SmallList` holds one element inline and the rest in an array; whichever way it is built, it
/// reads as the array of the same elements (a change's dependencies are kept in one).
struct SmallListTests {
    @Test("a list of 0 to 6 elements, appended or made from an array, reads as that array", arguments: 0...6)
    func readsAsItsArray(count: Int) {
        let elements = (0..<count).map { $0 * 7 + 1 }
        var appended = SmallList<Int>()
        for element in elements { appended.append(element) }
        let made = SmallList(elements)
        for list in [appended, made] {
            #expect(Array(list) == elements)
            #expect(list.count == count)
            #expect(list.isEmpty == elements.isEmpty)
            #expect(list.indices == elements.indices)
            for index in elements.indices { #expect(list[index] == elements[index]) }
        }
        #expect(appended == made)
        #expect(made != SmallList(elements + [99]))
        #expect(SmallList(elements.reversed()).sorted() == elements)
    }
}
