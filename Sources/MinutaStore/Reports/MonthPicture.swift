/// `reports/YYYY/MM.svg`: the month as a picture (placeholder until the chart lands).
public enum MonthPicture {
    public static func bytes(_ report: MonthReport) -> [UInt8] {
        Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>\n".utf8)
    }
}
