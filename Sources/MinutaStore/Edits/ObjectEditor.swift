import AutomergeKit

/// Turns the JSON a user wrote for one record or tag into the smallest set of operations on its
/// map: only fields whose shown value changed are touched; text comments are spliced; file
/// name lists get inserts and deletes; other keys keep their stored type.
package struct ObjectEditor {
    package var document: Document
    package let object: ObjectID
    package let rules: [(String, FieldRule)]

    /// Validates `members` (the id already removed) against the object's current view and
    /// applies the differences. Nothing is applied when anything is invalid. A new object (`isNew`)
    /// must hold every field its rules require (`FieldRule.isRequired`).
    package mutating func apply(
        _ members: [(key: String, value: JSONValue)], currentView: [(key: String, value: JSONValue)], isNew: Bool = false
    ) throws(RecordInputError) {
        var working = document
        try apply(members, currentView: currentView, isNew: isNew, to: &working)
        document = working
    }

    /// ``apply(_:currentView:)`` without keeping the document as it was: when the editor holds the
    /// only reference to the document (the caller gave it up), nothing is copied, so an edit costs
    /// what the change costs and not the whole op set and history. On failure the document is left
    /// partly edited: the caller must discard it.
    package mutating func applyInPlace(_ members: [(key: String, value: JSONValue)], currentView: [(key: String, value: JSONValue)]) throws(RecordInputError) {
        var working = document
        document = Document()
        defer { document = working }
        try apply(members, currentView: currentView, isNew: false, to: &working)
    }

    /// The edited document; the editor keeps none, so the caller's copy is the only reference.
    package mutating func takeDocument() -> Document {
        defer { document = Document() }
        return document
    }

    private func apply(
        _ members: [(key: String, value: JSONValue)], currentView: [(key: String, value: JSONValue)], isNew: Bool, to working: inout Document
    ) throws(RecordInputError) {
        var seen = Set<[UInt8]>()
        for member in members where !seen.insert(Array(member.key.utf8)).inserted {
            throw .duplicateID(member.key)
        }
        func lookup(_ list: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
            list.first { $0.key.utf8.elementsEqual(key.utf8) }?.value
        }
        // Known fields first, in their fixed order, then every other key.
        var keys = rules.map(\.0)
        for member in currentView + members where member.key != "id" && !keys.contains(where: { $0.utf8.elementsEqual(member.key.utf8) }) {
            keys.append(member.key)
        }
        for key in keys {
            let new = lookup(members, key)
            let current = lookup(currentView, key)
            let rule = rules.first { $0.0.utf8.elementsEqual(key.utf8) }?.1
            if let rule {
                try applyKnown(key, rule: rule, new: new, current: current, isNew: isNew, in: &working)
            } else {
                try applyOther(key, new: new, current: current, in: &working)
            }
        }
        try validateTimes(in: working)
    }

    private func validateTimes(in document: Document) throws(RecordInputError) {
        guard rules.contains(where: { $0.0 == RecordField.endTime.key }) else { return }
        if case .scalar(.timestamp(let start))? = document.value(of: object, key: RecordField.startTime.key),
           case .scalar(.timestamp(let end))? = document.value(of: object, key: RecordField.endTime.key), end < start {
            throw .endBeforeStart
        }
    }

    private func applyKnown(
        _ key: String, rule: FieldRule, new rawNew: JSONValue?, current: JSONValue?, isNew: Bool, in document: inout Document
    ) throws(RecordInputError) {
        let new: JSONValue? = rawNew == .null ? nil : rawNew
        if case .fileNames = rule {
            // The list is always shown; an absent or null list means an empty one.
            let names = try fileNames(new ?? .array([]), field: key)
            if new ?? .array([]) == current { return }
            try editFileNames(key, to: names, in: &document)
            return
        }
        guard let new else {
            // A required field may not go, nor be left out of a new object; an object that already
            // lacks it (another device wrote it so) keeps an edit of its other fields.
            if rule.isRequired && (current != nil || isNew) { throw .missingField(key) }
            if current != nil {
                try engine(key) { (d: inout Document) throws(AutomergeError) in try d.delete(forKey: key, in: object) } (&document)
            }
            return
        }
        if new == current { return }
        switch rule {
        case .date:
            let milliseconds = try FieldRule.milliseconds(new, field: key)
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.put(.timestamp(milliseconds), forKey: key, in: object) } (&document)
        case .uuid:
            guard case .string(let text) = new, UUIDText.isValid(text) else { throw .wrongType(field: key, expected: "a UUID string") }
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.put(.string(text), forKey: key, in: object) } (&document)
        case .color:
            guard case .string(let text) = new, Self.isColor(text) else { throw .wrongType(field: key, expected: "a colour such as \"#4A90D9\"") }
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.put(.string(text), forKey: key, in: object) } (&document)
        case .boolean:
            guard case .bool(let flag) = new else { throw .wrongType(field: key, expected: "true or false") }
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.put(.boolean(flag), forKey: key, in: object) } (&document)
        case .text:
            guard case .string(let text) = new else { throw .wrongType(field: key, expected: "a string") }
            try editText(key, to: text, in: &document)
        case .fileNames:
            break
        }
    }

    private static func isColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 7 && bytes[0] == UInt8(ascii: "#")
            && bytes.dropFirst().allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }

    private func fileNames(_ value: JSONValue, field: String) throws(RecordInputError) -> [String] {
        guard case .array(let elements) = value else { throw .wrongType(field: field, expected: "an array of file names") }
        var names: [String] = []
        for element in elements {
            guard case .string(let name) = element else { throw .wrongType(field: field, expected: "an array of file names") }
            guard FieldRule.isValidFileName(name) else { throw .invalidImageName(name) }
            names.append(name)
        }
        return names
    }

    private func editText(_ key: String, to text: String, in document: inout Document) throws(RecordInputError) {
        let object = self.object
        if case .object(let textObject, .text)? = document.value(of: object, key: key) {
            let old = Array(document.text(of: textObject).unicodeScalars)
            guard let splice = Diff.splice(from: old, to: Array(text.unicodeScalars)) else { return }
            var inserted = ""
            inserted.unicodeScalars.append(contentsOf: splice.insert)
            do {
                try document.spliceText(textObject, at: splice.index, delete: splice.deleteCount, insert: inserted)
            } catch {
                // The splice would cut a stored multi-scalar element: replace the whole text instead.
                try engine(key) { (d: inout Document) throws(AutomergeError) in
                    try d.spliceText(textObject, at: 0, delete: old.count, insert: text)
                } (&document)
            }
        } else {
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.put(.string(text), forKey: key, in: object) } (&document)
        }
    }

    private func editFileNames(_ key: String, to names: [String], in document: inout Document) throws(RecordInputError) {
        let object = self.object
        try engine(key) { (d: inout Document) throws(AutomergeError) in
            guard case .object(let list, .list)? = d.value(of: object, key: key) else {
                let list = try d.putObject(.list, forKey: key, in: object)
                for (index, name) in names.enumerated() { try d.insert(.string(name), at: index, in: list) }
                return
            }
            let old: [ScalarValue] = d.elements(of: list).map { values in
                if case .scalar(let scalar)? = values.last?.value { return scalar }
                return .null
            }
            for step in Diff.steps(from: old, to: names.map { ScalarValue.string($0) }) {
                switch step {
                case .delete(let index): try d.delete(at: index, in: list)
                case .insert(let value, let index): try d.insert(value, at: index, in: list)
                }
            }
        } (&document)
    }

    private func applyOther(_ key: String, new: JSONValue?, current: JSONValue?, in document: inout Document) throws(RecordInputError) {
        if new == current { return }
        let object = self.object
        guard let new else {
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.delete(forKey: key, in: object) } (&document)
            return
        }
        let stored = document.value(of: object, key: key)
        let desired = TypedValue.fitted(try TypedValue.desired(new, field: key), to: stored, in: document)
        if let stored, !TypedValue.sameKind(desired, stored) {
            // A number that does not fit the stored number's type is stored with the type JSON gives it.
            let isNumberForNumber: Bool
            if case .scalar(let written) = desired, case .scalar(let kind) = stored {
                isNumberForNumber = TypedValue.isNumber(written) && TypedValue.isNumber(kind)
            } else {
                isNumberForNumber = false
            }
            if !isNumberForNumber { throw .wrongType(field: key, expected: TypedValue.kindName(stored) + " like the stored value") }
        }
        switch (desired, stored) {
        case (.scalar(.counter(let total)), .scalar(.counter(let stored))?):
            try engine(key) { (d: inout Document) throws(AutomergeError) in try d.increment(forKey: key, in: object, by: total &- stored) } (&document)
        case (.text(let text), .object(_, .text)?):
            try editText(key, to: text, in: &document)
        default:
            try engine(key) { (d: inout Document) throws(AutomergeError) in try Self.write(desired, forKey: key, in: object, document: &d) } (&document)
        }
    }

    package static func write(_ desired: TypedValue.Desired, forKey key: String, in object: ObjectID, document: inout Document) throws(AutomergeError) {
        switch desired {
        case .scalar(let value): try document.put(value, forKey: key, in: object)
        case .text(let text):
            let id = try document.putObject(.text, forKey: key, in: object)
            try document.spliceText(id, at: 0, delete: 0, insert: text)
        case .list(let items):
            let id = try document.putObject(.list, forKey: key, in: object)
            try fill(list: id, with: items, document: &document)
        case .map(let members), .table(let members):
            let type: ObjectType
            if case .map = desired { type = .map } else { type = .table }
            let id = try document.putObject(type, forKey: key, in: object)
            for member in members { try write(member.value, forKey: member.key, in: id, document: &document) }
        }
    }

    private static func fill(list: ObjectID, with items: [TypedValue.Desired], document: inout Document) throws(AutomergeError) {
        for (index, item) in items.enumerated() {
            switch item {
            case .scalar(let value): try document.insert(value, at: index, in: list)
            case .text(let text):
                let id = try document.insertObject(.text, at: index, in: list)
                try document.spliceText(id, at: 0, delete: 0, insert: text)
            case .list(let inner):
                let id = try document.insertObject(.list, at: index, in: list)
                try fill(list: id, with: inner, document: &document)
            case .map(let members), .table(let members):
                let type: ObjectType
                if case .map = item { type = .map } else { type = .table }
                let id = try document.insertObject(type, at: index, in: list)
                for member in members { try write(member.value, forKey: member.key, in: id, document: &document) }
            }
        }
    }

    /// Runs an engine edit; the engine only refuses edits this layer has already validated, so a
    /// refusal is reported as a type problem of the field.
    private func engine(_ key: String, _ body: @escaping (inout Document) throws(AutomergeError) -> Void) -> (inout Document) throws(RecordInputError) -> Void {
        { (document: inout Document) throws(RecordInputError) in
            do { try body(&document) } catch { throw .wrongType(field: key, expected: "a value the document can hold (\(error))") }
        }
    }
}
