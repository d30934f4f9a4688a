import Foundation

/// Runs a short `python3` program, for checks made with a tool independent of our code (Python's
/// `csv` and `xml` modules, a PNG decoder written with `zlib` and `struct`).
public enum PythonScript {
    /// Runs `python3 -c SCRIPT ARGUMENTS…` and returns its standard output.
    ///
    /// - Throws: `FixtureError` with the standard error when python3 fails.
    public static func run(_ script: String, arguments: [String] = []) throws -> String {
        try withTemporaryDirectory { folder in
            let outputPath = folder + "/stdout"
            let errorPath = folder + "/stderr"
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            defer {
                try? output.close()
                try? error.close()
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script] + arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = error
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: try Fixtures.contents(ofFileAtPath: outputPath), as: UTF8.self)
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                let errorText = String(decoding: try Fixtures.contents(ofFileAtPath: errorPath), as: UTF8.self)
                throw FixtureError("python3 failed (\(process.terminationStatus)): \(errorText)")
            }
            return text
        }
    }

    /// Parses CSV bytes with Python's `csv` module (strict, RFC 4180 dialect) and returns the rows.
    public static func csvRows(_ bytes: [UInt8]) throws -> [[String]] {
        try withTemporaryDirectory { folder in
            let path = folder + "/report.csv"
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw FixtureError("cannot write \(path)") }
            let json = try run("""
                import csv, json, sys
                raw = open(sys.argv[1], 'rb').read()
                # Every row ends with CRLF, so the text ends with one and splitting leaves an empty tail.
                assert raw.endswith(b'\\r\\n'), 'no CRLF at the end'
                with open(sys.argv[1], newline='', encoding='utf-8') as f:
                    rows = list(csv.reader(f, strict=True))
                json.dump(rows, sys.stdout, ensure_ascii=True)
                """, arguments: [path])
            guard let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]] else {
                throw FixtureError("python's csv gave no rows: \(json)")
            }
            return rows
        }
    }
}
