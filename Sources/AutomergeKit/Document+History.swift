/// One operation of a change, described for people and tests.
public struct OperationSummary: Sendable, Equatable, CustomStringConvertible {
    /// `makeMap`, `set`, `makeList`, `delete`, `makeText`, `increment`, `makeTable`, `mark`.
    public let action: String
    /// The map key it writes, or `nil` for a list or text element.
    public let key: String?
    public let isInsert: Bool
    public let value: ScalarValue

    public init(action: String, key: String?, isInsert: Bool, value: ScalarValue) {
        self.action = action
        self.key = key
        self.isInsert = isInsert
        self.value = value
    }

    public var description: String { "\(action)\(isInsert ? " insert" : "") \(key ?? "#")" }
}

extension Document {
    /// The operations of the change with this hash, in order; `nil` when the document lacks it.
    public func operations(ofChange hash: ChangeHash) -> [OperationSummary]? {
        guard let index = historyIndex[hash], let change = try? history[index].withOperations() else { return nil }
        return change.operations.map { operation in
            let key: String? = if case .property(let name) = operation.key { name.string } else { nil }
            return OperationSummary(action: "\(operation.action)", key: key, isInsert: operation.insert, value: operation.value)
        }
    }
}
