@testable import MinutaStore
import Testing

/// `TagsSaver`'s reading of a written `tags.json`: exactly `{"tags": [ ... ]}`.
struct TagsSaverTests {
    @Test("the list of tags is taken; anything else is refused naming tags.json")
    func parsing() throws {
        #expect(try TagsSaver.parse(Array(#"{"tags": [{"name": "a"}, {"name": "b"}]}"#.utf8)).count == 2)
        #expect(try TagsSaver.parse(Array(#"{"tags": []}"#.utf8)).isEmpty)
        for text in [#"{"tags": [], "other": 1}"#, #"[]"#, #"{"tags": {}}"#, #"{"tags": ["#] {
            do {
                _ = try TagsSaver.parse(Array(text.utf8))
                Issue.record("\(text) was taken")
            } catch {
                guard case .rejected(let file, _, _, _) = error else { Issue.record("\(text): \(error)"); continue }
                #expect(file == "tags.json")
            }
        }
    }
}
