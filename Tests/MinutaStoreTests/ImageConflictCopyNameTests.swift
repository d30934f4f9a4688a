import MinutaStore
import Testing

/// The names sync tools give conflict copies of images, and names that only look like them.
struct ImageConflictCopyNameTests {
    static let id = "478594E3-17C2-407E-8493-B78CB2137020"

    @Test("each sync tool's image copy names its original", arguments: [
        ("\(id)_0 (Alice's conflicted copy 2024-01-15).jpg", "\(id)_0.jpg"),
        ("\(id)_0 (conflicted copy 2024-01-15).jpg", "\(id)_0.jpg"),
        ("\(id)_1 (conflicted copy 2024-01-15 101010).png", "\(id)_1.png"),
        ("\(id)_0_conflict-20240115-101010.jpg", "\(id)_0.jpg"),
        ("\(id)_0 (1).jpg", "\(id)_0.jpg"),
        ("\(id)_0 2.heic", "\(id)_0.heic"),
        ("\(id)_0.sync-conflict-20240115-101010-ABCDEF7.jpg", "\(id)_0.jpg"),
    ])
    func copies(name: String, original: String) {
        #expect(ImageConflictCopyName.original(ofCopy: name) == original)
    }

    @Test("app image names and near-misses are not copies", arguments: [
        "\(id)_0.jpg", "\(id)_12.png", "photo.jpg", "\(id)_0 (0).jpg", "\(id)_0 1.jpg", "conflict.jpg",
        "\(id)_0.sync-conflict-2024.jpg",
    ])
    func notCopies(name: String) {
        #expect(ImageConflictCopyName.original(ofCopy: name) == nil)
    }
}
