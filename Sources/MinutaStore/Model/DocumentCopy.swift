import AutomergeKit

/// Copies a map's visible contents from one document into another, keeping types (a text stays a
/// text, a counter a counter with its total).
enum DocumentCopy {
    static func copyMap(_ source: ObjectID, from document: Document, to target: ObjectID, in output: inout Document) throws(AutomergeError) {
        for key in document.keys(of: source) {
            guard let value = document.value(of: source, key: key) else { continue }
            switch value {
            case .scalar(let scalar): try output.put(scalar, forKey: key, in: target)
            case .object(let id, let type):
                let copy = try output.putObject(type, forKey: key, in: target)
                try copyContents(id, type: type, from: document, to: copy, in: &output)
            }
        }
    }

    static func copyContents(_ source: ObjectID, type: ObjectType, from document: Document, to target: ObjectID, in output: inout Document) throws(AutomergeError) {
        switch type {
        case .map, .table: try copyMap(source, from: document, to: target, in: &output)
        case .text: try output.spliceText(target, at: 0, delete: 0, insert: document.text(of: source))
        case .list:
            for (index, values) in document.elements(of: source).enumerated() {
                guard let value = values.last?.value else { continue }
                switch value {
                case .scalar(let scalar): try output.insert(scalar, at: index, in: target)
                case .object(let id, let innerType):
                    let copy = try output.insertObject(innerType, at: index, in: target)
                    try copyContents(id, type: innerType, from: document, to: copy, in: &output)
                }
            }
        }
    }
}
