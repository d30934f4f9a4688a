import Testing
import TestSupport

/// The manifest's merge-order notation, which the merge tests rely on.
struct MergeExpressionTests {
    @Test("merge expressions parse flat and nested", arguments: [
        ("merge(a,b)", .merge([.file("a"), .file("b")])),
        ("merge(merged,c)", .merge([.file("merged"), .file("c")])),
        ("merge(a,merge(c,b))", .merge([.file("a"), .merge([.file("c"), .file("b")])])),
        ("merge(merge(b,a),c)", .merge([.merge([.file("b"), .file("a")]), .file("c")])),
    ] as [(String, MergeExpression)])
    func parses(text: String, expected: MergeExpression) throws {
        let expression = try MergeExpression(parsing: text)
        #expect(expression == expected)
        #expect(expression.description == text)
    }

    @Test("malformed merge expressions are rejected", arguments: ["merge(a,b", "merge(a,b))", "merge(,b)", "(a,b)"])
    func rejects(text: String) {
        #expect(throws: FixtureError.self) { try MergeExpression(parsing: text) }
    }
}
