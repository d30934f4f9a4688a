/// A table for the terminal, like `timew summary`: columns padded to their widest cell (by the
/// columns the terminal draws it in, `DisplayWidth`: `家事` and `🚀` take two), numbers right-aligned,
/// a dashed rule under the header and above the totals. Cells are printed as given: escape what the
/// store holds with `TerminalText` first.
public struct TextTable: Sendable {
    public var header: [String]
    public var rightAligned: Set<Int>
    public private(set) var rows: [[String]] = []
    private var ruleBefore: Set<Int> = []

    public init(header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
    }

    public mutating func row(_ cells: [String]) { rows.append(cells) }

    /// Puts a dashed rule above the next row (the totals).
    public mutating func rule() { ruleBefore.insert(rows.count) }

    public var text: String {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        let cellWidths = all.map { $0.map(DisplayWidth.of) }
        for row in cellWidths { for (index, width) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], width) } }
        func line(_ cells: [String], _ cellWidths: [Int]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: max(0, widths[index] - cellWidths[index]))
                return rightAligned.contains(index) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        var result = line(header, cellWidths[0]) + "\n" + rule + "\n"
        for (index, row) in rows.enumerated() {
            if ruleBefore.contains(index) { result += rule + "\n" }
            result += line(row, cellWidths[index + 1]) + "\n"
        }
        return result
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
