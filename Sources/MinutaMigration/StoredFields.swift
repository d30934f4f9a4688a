import AutomergeKit
import MinutaStore
/// Compares extra keys of a legacy file with what a document stores for them: a plain JSON value
/// and its typed-JSON rendering (`1.5` and `{"_f64": 1.5}`) are the same stored value, and the
/// order of an object's keys does not matter.
enum StoredFields {
    static func same(_ left: [String: JSONValue], _ right: [String: JSONValue]) -> Bool {
        guard left.count == right.count else { return false }
        for (key, value) in left {
            guard let other = right[key], let a = try? TypedValue.desired(value, field: key),
                  let b = try? TypedValue.desired(other, field: key), canonical(a) == canonical(b) else { return false }
        }
        return true
    }

    private static func canonical(_ value: TypedValue.Desired) -> TypedValue.Desired {
        func sorted(_ members: [(key: String, value: TypedValue.Desired)]) -> [(key: String, value: TypedValue.Desired)] {
            members.map { ($0.key, canonical($0.value)) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        switch value {
        case .scalar, .text: return value
        case .list(let items): return .list(items.map(canonical))
        case .map(let members): return .map(sorted(members))
        case .table(let members): return .table(sorted(members))
        }
    }
}
