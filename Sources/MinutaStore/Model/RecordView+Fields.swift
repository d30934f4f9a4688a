import AutomergeKit

extension RecordView {
    /// The fields record `id` (`object` in `document`) shows in its file, in file order, without `id`:
    /// what a move remembers of a record to carry another device's later edits (`MovedAwayRecords`).
    static func fields(of id: String, object: ObjectID, in document: Document) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = json(id: id, record: object, in: document) else { return [] }
        return members.filter { $0.key != "id" }
    }
}
