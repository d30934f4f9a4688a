/// The colors a tag created from the terminal gets (SPEC 10): Tableau 10, the first one no tag uses yet
/// (compared without regard to case), or the first again when every one is used.
public enum TagPalette {
    public static let colors = ["#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948", "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC"]

    public static func firstUnused(among used: [String]) -> String {
        let taken = Set(used.map { $0.uppercased() })
        return colors.first { !taken.contains($0) } ?? colors[0]
    }
}
