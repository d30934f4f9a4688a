import Foundation

/// One scenario of `Tests/Fixtures/automerge/MANIFEST.json`.
public struct FixtureScenario: Decodable, Sendable, CustomStringConvertible {
    public let name: String
    public let kind: String
    public let files: [String]
    public let note: String
    /// Documents only: whether saving the loaded file again reproduces it byte for byte.
    public let resaveIdentical: Bool?
    /// Merge sets only: the input letters in the listed order (`["a", "b"]`, `["a", "b", "c"]`).
    public let inputs: [String]?
    /// Merge sets only: merge expressions (`"merge(a,merge(b,c))"`, `"merge(merged,a)"`) grouped by
    /// equal saved bytes.
    public let mergeOrderGroups: [[String]]?

    enum CodingKeys: String, CodingKey {
        case name, kind, files, note, inputs
        case resaveIdentical = "resave_identical"
        case mergeOrderGroups = "merge_order_groups"
    }

    public var description: String { name }

    /// The input file of a merge set for `letter` (`"three-way.b.automerge"`), or the merged
    /// result for `"merged"`.
    public func inputFile(_ letter: String) -> String {
        letter == "merged" ? "\(name).merged.automerge" : "\(name).\(letter).automerge"
    }

    /// The saved result of merging the inputs flat in `order` (first loaded, the others merged into
    /// it one by one): `NAME.merged.automerge` for the listed order, `NAME.merged-ORDER.automerge`
    /// for another where the set has that file, else `nil`.
    public func mergedFile(forOrder order: [String]) -> String? {
        if order == inputs { return "\(name).merged.automerge" }
        let file = "\(name).merged-\(order.joined()).automerge"
        return files.contains(file) ? file : nil
    }

    /// Every scenario of the manifest, in its order.
    public static func all() throws -> [FixtureScenario] {
        let data = Data(try Fixtures.bytes("MANIFEST.json"))
        do {
            return try JSONDecoder().decode([FixtureScenario].self, from: data)
        } catch {
            throw FixtureError("cannot read MANIFEST.json: \(error)")
        }
    }

    /// The scenarios that are merge sets (they list `inputs`).
    public static func mergeSets() throws -> [FixtureScenario] {
        try all().filter { $0.inputs != nil }
    }
}
