import Foundation
import MinutaStore
import TestSupport

/// Copies of the sample store `Tests/Fixtures/stores/app-2024` for tests that change things.
enum StoreFixture {
    static func copyOfAppStore(into folder: String, name: String = "store") throws -> String {
        let source = try Fixtures.directory("stores") + "/app-2024"
        let destination = folder + "/" + name
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        return destination
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func modificationDate(_ path: String) throws -> (Date, Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.modificationDate] as? Date) ?? .distantPast, (attributes[.systemFileNumber] as? Int) ?? -1)
    }
}
