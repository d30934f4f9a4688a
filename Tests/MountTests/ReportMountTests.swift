import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `MOUNT/reports/` on the sample store (SPEC section 9): listed, parsed by Python's `csv` module,
/// totals equal to a sum over the record files, following edits, and read-only.
@Suite(.serialized)
struct ReportMountTests {
    /// For each finished month (no running timer), `month hoursFromByTagCSV hoursSummedFromRecordFiles`:
    /// each mounted record file's own hours (its exact time rounded half up to hundredths, with
    /// integers and Python's own date parsing), added up by the month it starts in (the mount is in
    /// UTC), whichever month folder shows it (SPEC 9).
    static let totalsScript = #"""
        import collections, csv, datetime, glob, json, os, sys
        mnt = sys.argv[1]
        def instant(text):
            return datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
        summary = list(csv.reader(open(f'{mnt}/reports/2024/summary.csv', newline='', encoding='utf-8'), strict=True))
        by_start = collections.defaultdict(list)
        for path in glob.glob(f'{mnt}/records/*/[0-9][0-9]/*.json'):
            record = json.load(open(path, encoding='utf-8'))
            by_start[instant(record['startTime']).strftime('%Y-%m')].append(record)
        for folder in sorted(glob.glob(f'{mnt}/records/2024/[0-9][0-9]')):
            month = os.path.basename(folder)
            records = by_start[f'2024-{month}']
            sheet = list(csv.reader(open(f'{mnt}/reports/2024/{month}.csv', newline='', encoding='utf-8'), strict=True))
            assert len(sheet) == len(records) + 1, (month, len(sheet), len(records))
            assert sorted(r[8] for r in sheet[1:]) == sorted(r['id'] for r in records), month
            by_tag = list(csv.reader(open(f'{mnt}/reports/2024/{month}-by-tag.csv', newline='', encoding='utf-8'), strict=True))
            assert by_tag[-1][0] == 'total', by_tag[-1]
            if any(r.get('endTime') is None for r in records):
                continue  # a running timer counts up to now, which moves between two reads
            month_row = [row for row in summary if row[0] == f'2024-{month}'][0]
            assert month_row[-1] == by_tag[-1][1], (month_row, by_tag[-1])
            hundredths = sum((max(0, (instant(r['endTime']) - instant(r['startTime'])) // datetime.timedelta(milliseconds=1)) + 18000) // 36000
                             for r in records)
            print(month, by_tag[-1][1], '%d.%02d' % (hundredths // 100, hundredths % 100))
        """#

    @Test("reports/ is listed, every CSV parses, and the totals are the sums of the mounted record files' own hours")
    func totals() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let root = try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint)
            #expect(root.contains("reports"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/reports") == ["2024"])
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/reports/2024")
            let expected = (1...12).flatMap { m -> [String] in
                let month = m < 10 ? "0\(m)" : "\(m)"
                return [month + ".csv", month + "-by-tag.csv", month + ".svg"]
            } + ["summary.csv"]
            #expect(Set(names) == Set(expected))
            let output = try PythonScript.run(Self.totalsScript, arguments: [mounted.mountPoint])
            let lines = output.split(separator: "\n")
            #expect(lines.count >= 6, "finished months compared: \(output)")
            for line in lines {
                let fields = line.split(separator: " ")
                #expect(fields.count == 3 && fields[1] == fields[2], "month \(fields[0]): the report says \(fields.dropFirst().first ?? "") h, the record files' own hours add up to \(fields.last ?? "") h")
            }
            #expect(mounted.unmount() == 0)
        }
    }

    /// Report files are cached by the kernel like record files (unless a running timer makes them follow
    /// the clock): with the mount's notices for them removed, this test fails (by-tag still shows the
    /// old total, the SVG the old picture).
    @Test("an edit through the mount shows in the month's CSV, by-tag CSV and SVG")
    func followsEdits() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let monthFolder = mounted.mountPoint + "/records/2024/02"
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: monthFolder).filter { $0.hasSuffix(".json") }.sorted().first)
            let byTagPath = mounted.mountPoint + "/reports/2024/02-by-tag.csv"
            let sheetPath = mounted.mountPoint + "/reports/2024/02.csv"
            let before = try PythonScript.csvRows(Fixtures.contents(ofFileAtPath: byTagPath))
            _ = try Fixtures.contents(ofFileAtPath: sheetPath)  // computed and cached before the edit
            let pictureBefore = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/reports/2024/02.svg")
            let comment = "Täglich, \"wichtig\"\n会議 — ok"
            // Thirty minutes more, and a comment a CSV must quote.
            _ = try PythonScript.run("""
                import datetime, json, sys
                path, comment = sys.argv[1], sys.argv[2]
                record = json.load(open(path, encoding='utf-8'))
                end = datetime.datetime.fromisoformat(record['endTime'].replace('Z', '+00:00')) + datetime.timedelta(minutes=30)
                record['endTime'] = end.isoformat()
                record['comment'] = comment
                with open(path, 'w', encoding='utf-8') as out:
                    json.dump(record, out, ensure_ascii=False)
                """, arguments: [monthFolder + "/" + name, comment])
            let id = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: monthFolder + "/" + name))) as? [String: Any])["id"] as? String
            let changed = eventually(within: 10) {
                guard let rows = try? PythonScript.csvRows(Fixtures.contents(ofFileAtPath: sheetPath)) else { return false }
                return rows.contains { $0.last == id && $0[6] == comment }
            }
            #expect(changed, "02.csv does not show the new comment")
            let after = try PythonScript.csvRows(Fixtures.contents(ofFileAtPath: byTagPath))
            let beforeHours = try #require(before.last.flatMap { Double($0[1]) })
            let afterHours = try #require(after.last.flatMap { Double($0[1]) })
            #expect(abs(afterHours - beforeHours - 0.5) <= 0.01, "by-tag total went from \(beforeHours) to \(afterHours)")
            let pictureAfter = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/reports/2024/02.svg")
            #expect(pictureAfter != pictureBefore, "02.svg did not change")
            #expect(String(decoding: pictureAfter, as: UTF8.self).contains(afterHoursText(after)))
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("another device's edit, arriving as a Dropbox conflict copy, shows in the month's CSV once merged")
    func followsConflictCopies() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let sheetPath = mounted.mountPoint + "/reports/2024/02.csv"
            let before = try PythonScript.csvRows(Fixtures.contents(ofFileAtPath: sheetPath))
            // The other device: the same store, one February record given a comment.
            let device = folder + "/device"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: device)
            try Shell.run("chmod -R u+w '\(device)'")
            let other = try Store(folder: FilePath(device), timeZone: .utc)
            let february = try #require(Month(year: 2024, month: 2))
            let file = try #require(try other.recordFiles(in: february).first { !String(decoding: $0.contents, as: UTF8.self).contains("\"comment\"") })
            let comment = "from the phone, \"second\" device"
            let edited = String(decoding: file.contents, as: UTF8.self)
                .replacingOccurrences(of: #""images""#, with: #""comment": "from the phone, \"second\" device", "images""#)
            _ = try other.writeRecordFile(Array(edited.utf8), named: file.name, in: february)
            #expect(!before.contains { $0[8] == file.id && $0[6] == comment })
            try FileManager.default.copyItem(atPath: device + "/records/2024/02.automerge",
                                             toPath: mounted.store + "/records/2024/02 (Phone's conflicted copy 2024-03-01).automerge")
            let shown = eventually(within: 10) {
                guard let rows = try? PythonScript.csvRows(Fixtures.contents(ofFileAtPath: sheetPath)) else { return false }
                return rows.contains { $0[8] == file.id && $0[6] == comment }
            }
            #expect(shown, "02.csv does not show the other device's comment")
            // The kernel's cached size was dropped too (the comment made the file longer).
            let size = (try FileManager.default.attributesOfItem(atPath: sheetPath)[.size] as? NSNumber)?.intValue
            #expect(size == (try Fixtures.contents(ofFileAtPath: sheetPath)).count)
            #expect(mounted.unmount() == 0)
        }
    }

    private func afterHoursText(_ rows: [[String]]) -> String { "2024-02: \(rows.last?[1] ?? "?") h" }

    @Test("writing, creating, deleting, renaming and mkdir under reports/ fail with EROFS, and the store is unchanged")
    func readOnly() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let snapshot = try Shell.run("cd '\(mounted.store)' && find . -type f -exec sha256sum {} + | sort")
            let output = try PythonScript.run("""
                import errno, os, sys
                r = sys.argv[1] + '/reports/2024'
                record_folder = sys.argv[1] + '/records/2024/01'
                record = sorted(n for n in os.listdir(record_folder) if n.endswith('.json'))[0]
                attempts = {
                    'write': lambda: open(r + '/01.csv', 'w').close(),
                    'append': lambda: open(r + '/01.csv', 'a').close(),
                    'create': lambda: open(r + '/new.csv', 'w').close(),
                    'truncate': lambda: os.truncate(r + '/01.csv', 0),
                    'unlink': lambda: os.remove(r + '/01.csv'),
                    'rename': lambda: os.rename(r + '/01.csv', r + '/x.csv'),
                    'rename-in': lambda: os.rename(record_folder + '/' + record, r + '/01.csv'),
                    'mkdir': lambda: os.mkdir(r + '/more'),
                    'mkdir-year': lambda: os.mkdir(sys.argv[1] + '/reports/2030'),
                    'rmdir': lambda: os.rmdir(r),
                }
                for name, attempt in attempts.items():
                    try:
                        attempt()
                        print(name, 'succeeded')
                    except OSError as e:
                        print(name, errno.errorcode.get(e.errno, e.errno))
                """, arguments: [mounted.mountPoint])
            let results = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").map { line in
                let parts = line.split(separator: " ")
                return (String(parts[0]), String(parts[1]))
            })
            for attempt in ["write", "append", "create", "truncate", "unlink", "rename", "rename-in", "mkdir", "mkdir-year", "rmdir"] {
                #expect(results[attempt] == "EROFS", "\(attempt): \(results[attempt] ?? "not tried")")
            }
            #expect(FileManager.default.fileExists(atPath: mounted.mountPoint + "/reports/2024/01.csv"))
            #expect(mounted.unmount() == 0)
            let after = try Shell.run("cd '\(mounted.store)' && find . -type f -exec sha256sum {} + | sort")
            #expect(after.output == snapshot.output)
        }
    }

    /// `minutafs report` and `MOUNT/reports/` come from the same code on the same records: their bytes
    /// are the same, for a comment a spreadsheet would run and one with terminal escapes too.
    @Test("minutafs report prints the mount's MM.csv and MM.svg byte for byte, for every finished month")
    func commandAgreesWithMount() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let monthFolder = mounted.mountPoint + "/records/2024/03"
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: monthFolder).filter { $0.hasSuffix(".json") }.sorted().first)
            _ = try PythonScript.run("""
                import json, os, sys
                path = sys.argv[1]
                record = json.load(open(path, encoding='utf-8'))
                record['comment'] = '=HYPERLINK("http://x")\\u001b]0;t\\u0007 家事 🚀'
                with open(path, 'w', encoding='utf-8') as out:
                    json.dump(record, out, ensure_ascii=False)
                    out.flush()
                    os.fsync(out.fileno())
                """, arguments: [monthFolder + "/" + name])
            var compared = 0
            for month in 1...12 {
                let monthName = month < 10 ? "0\(month)" : "\(month)"
                let sheetPath = mounted.mountPoint + "/reports/2024/\(monthName).csv"
                let sheet = try Fixtures.contents(ofFileAtPath: sheetPath)
                if String(decoding: sheet, as: UTF8.self).contains(",running") { continue }  // follows the clock
                let arguments = ["report", mounted.store, "--month", "2024-\(monthName)", "--timezone", "UTC", "--format"]
                let csv = try MinutafsBinary.run(arguments + ["csv"])
                #expect(csv.status == 0, "\(csv.errorText)")
                #expect(csv.standardOutput == sheet, "2024-\(monthName).csv: \(ByteDifference(actual: csv.standardOutput, expected: sheet).map(String.init(describing:)) ?? "")")
                let svg = try MinutafsBinary.run(arguments + ["svg"])
                #expect(svg.status == 0, "\(svg.errorText)")
                #expect(svg.standardOutput == (try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/reports/2024/\(monthName).svg")), "2024-\(monthName).svg")
                compared += 1
            }
            #expect(compared >= 6)
            let march = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/reports/2024/03.csv")
            #expect(String(decoding: march, as: UTF8.self).contains("\"'=HYPERLINK(\"\"http://x\"\")"), "the edited comment, neutralised")
            #expect(mounted.unmount() == 0)
        }
    }
}
