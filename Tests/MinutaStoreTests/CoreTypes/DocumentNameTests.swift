@testable import MinutaStore
import Testing

/// `DocumentName`: the store's document paths, parsed and printed in one place.
struct DocumentNameTests {
    static let july = Month(year: 2024, month: 7)!

    @Test("the tags document and a month's document are parsed from their relative paths and printed back")
    func roundTrip() {
        #expect(DocumentName(relativePath: "tags.automerge") == .tags)
        #expect(DocumentName(relativePath: "records/2024/07.automerge") == .month(Self.july))
        for name in [DocumentName.tags, .month(Self.july), .month(Month(year: 1, month: 12)!)] {
            #expect(DocumentName(relativePath: name.relativePath) == name)
            #expect(name.description == name.relativePath)
        }
        #expect(DocumentName.tags.relativePath == DocumentName.tagsPath)
        #expect(DocumentName.month(Self.july).relativePath == "records/2024/07.automerge")
    }

    @Test("anything else is not a document name")
    func notDocuments() {
        for path in [
            "", "tags.json", "tags.automerge/", "/tags.automerge", "Tags.automerge", "records/2024/13.automerge",
            "records/2024/7.automerge", "records/24/07.automerge", "records/2024/07", "records/2024/07.json",
            "records/2024/07 (conflicted copy 2024-07-02).automerge", "records/2024/.07.automerge.tmp",
            "other/2024/07.automerge", "records/2024/07/07.automerge", "tags (minutafs conflicted copy 2024-01-01).automerge",
        ] {
            #expect(DocumentName(relativePath: path) == nil, "\(path)")
        }
    }

    @Test("what the mount shows: tags.json, or the month's folder")
    func shownPaths() {
        #expect(DocumentName.tags.shownPath == "tags.json")
        #expect(DocumentName.month(Self.july).shownPath == "records/2024/07")
        #expect(DocumentFiles.shownName(of: "records/2024/07.automerge") == "records/2024/07")
    }

    @Test("a month or none names the month's document or the tags'")
    func fromOptionalMonth() {
        #expect(DocumentName(nil) == .tags)
        #expect(DocumentName(Self.july) == .month(Self.july))
        #expect(DocumentName(Self.july).month == Self.july)
        #expect(DocumentName.tags.month == nil)
    }
}
