import MinutaStore
import MinutaTimer
import Testing

/// Which tag `--tag` names: by id in any case, by name without regard to case, unarchived first;
/// unknown and ambiguous names list the candidates.
@Suite struct TagChoiceTests {
    static let tagsJSON = """
        {"tags": [
          {"id": "11111111-1111-4111-8111-111111111111", "name": "Work", "color": "#112233", "isArchived": false},
          {"id": "22222222-2222-4222-8222-222222222222", "name": "work", "color": "#112233", "isArchived": true},
          {"id": "33333333-3333-4333-8333-333333333333", "name": "Reading", "color": "#112233", "isArchived": false},
          {"id": "44444444-4444-4444-8444-444444444444", "name": "Reading", "color": "#112233", "isArchived": false},
          {"id": "55555555-5555-4555-8555-555555555555", "name": "Old", "color": "#112233", "isArchived": true},
          {"name": "no id"}
        ]}
        """
    let tags = TagSummary.tags(inTagsJSON: Array(tagsJSON.utf8))

    @Test("tags.json is read, entries without an id left out")
    func parsed() {
        #expect(tags.count == 5)
        #expect(tags[1] == TagSummary(id: "22222222-2222-4222-8222-222222222222", name: "work", isArchived: true))
    }

    @Test("by id in any case, by name in any case with the unarchived tag first, an archived tag when it is the only one")
    func chosen() throws {
        #expect(try TagChoice.resolve("22222222-2222-4222-8222-222222222222".lowercased(), among: tags).name == "work")
        #expect(try TagChoice.resolve("WORK", among: tags).id == "11111111-1111-4111-8111-111111111111")
        #expect(try TagChoice.resolve("old", among: tags).id == "55555555-5555-4555-8555-555555555555")
    }

    @Test("two unarchived tags of one name: ambiguous, both listed with their ids")
    func ambiguous() {
        do {
            _ = try TagChoice.resolve("reading", among: tags)
            Issue.record("no error")
        } catch {
            guard case .ambiguousTag(_, let candidates) = error else { Issue.record("\(error)"); return }
            #expect(candidates.count == 2 && candidates.allSatisfy { $0.contains("Reading") })
            #expect(error.description.contains("33333333-3333-4333-8333-333333333333") && error.description.contains("44444444-4444-4444-8444-444444444444"))
        }
    }

    @Test("an unknown name lists similar tags, else every unarchived tag")
    func unknown() {
        #expect(throws: TimerError.unknownTag("Wor", candidates: [#""Work" (11111111-1111-4111-8111-111111111111)"#])) {
            try TagChoice.resolve("Wor", among: tags)
        }
        do {
            _ = try TagChoice.resolve("Gardening", among: tags)
        } catch {
            guard case .unknownTag(_, let candidates) = error else { Issue.record("\(error)"); return }
            #expect(candidates.count == 3)
        }
    }
}
