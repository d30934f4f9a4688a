import MinutaStore
import Testing

/// Conflict copy names of every sync tool in SPEC section 5, and near-misses that must not match.
struct ConflictCopyNameTests {
    @Test("real conflict copy names are recognised with their primary", arguments: [
        ("01 (Alice's conflicted copy 2024-01-15).automerge", "01.automerge"),
        ("01 (conflicted copy 2024-01-15).automerge", "01.automerge"),
        ("01 (Case Conflict).automerge", "01.automerge"),
        ("01 2.automerge", "01.automerge"),
        ("01 (1).automerge", "01.automerge"),
        ("01-DESKTOP-AB12CD.automerge", "01.automerge"),
        ("01.sync-conflict-20240115-143022-ABCDEF7.automerge", "01.automerge"),
        ("01 (conflicted copy 2024-01-15 143022).automerge", "01.automerge"),
        ("01_conflict-20240115-143022.automerge", "01.automerge"),
        ("01 (SFConflict alice@example.com 2024-01-15-14-30-22).automerge", "01.automerge"),
        ("01.automerge.conflict1", "01.automerge"),
        ("01.automerge..path1", "01.automerge"),
        ("01.Conflict.automerge", "01.automerge"),
        ("01.automerge.conflicted", "01.automerge"),
        ("01.automerge (conflict_on_2024-01-15)", "01.automerge"),
        ("12 (Bob's conflicted copy 2023-12-31).automerge", "12.automerge"),
        ("tags (conflicted copy 2024-01-15).automerge", "tags.automerge"),
        ("tags.sync-conflict-20240115-143022-ABCDEF7.automerge", "tags.automerge"),
        ("tags 2.automerge", "tags.automerge"),
        ("tags-LAPTOP.automerge", "tags.automerge"),
    ])
    func recognised(name: String, primary: String) {
        #expect(ConflictCopyName.match(name)?.primaryName == primary)
    }

    @Test("names that only look like conflict copies are not", arguments: [
        "01.automerge", "02.automerge", "tags.automerge", "2024 (1)", "01 (1).json", "13 (1).automerge",
        "00 2.automerge", "01 1.automerge", "01 (0).automerge", "notes (1).automerge", "01 (conflicted copy).automerge",
        "01.automerge.tmp", "01.sync-conflict-2024-ABC.automerge", "1 (1).automerge", "records (1).automerge",
        "01 (Alice's copy 2024-01-15).automerge", "01.automerge.conflict",
    ])
    func notRecognised(name: String) {
        #expect(ConflictCopyName.match(name) == nil)
    }
}
