import AutomergeKit

/// Which content of a document something was rendered from: its heads and the operations it holds
/// beyond them (made and not yet committed). Every change of the content, an edit or a merge, gives
/// another version, so a view kept with the version it was rendered from is current exactly when the
/// version is the document's: no one has to remember to drop it.
struct DocumentVersion: Sendable, Equatable {
    let heads: [ChangeHash]
    let uncommittedOperations: Int

    init(of document: Document) {
        heads = document.heads
        uncommittedOperations = document.uncommittedOperationCount
    }
}
