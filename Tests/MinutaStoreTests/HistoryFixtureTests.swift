import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A snapshot at every change's effective time equals the reference's state at the heads of the
/// changes in effect then, rendered as SPEC section 3 lays out record files and `tags.json`
/// (`Tests/Fixtures/history/NAME.snapshots`; the rendering is done here by a short Python program
/// written from the spec, not by our view code).
struct HistoryFixtureTests {
    /// Reads NAME.snapshots on standard input; prints one JSON object per line: the instant and the
    /// files a mount shows for the reference state (file name to contents).
    static let renderScript = #"""
        import json, sys, datetime
        kind = sys.argv[1]
        def iso(ms):
            moment = datetime.datetime.fromtimestamp(ms // 1000, tz=datetime.timezone.utc)
            text = moment.strftime('%Y-%m-%dT%H:%M:%S')
            return text + ('.%03d' % (ms % 1000) if ms % 1000 else '') + 'Z'
        def date(value):
            return iso(value['_ts']) if isinstance(value, dict) and '_ts' in value else value
        def dump(value):
            return json.dumps(value, indent=2, ensure_ascii=False) + '\n'
        for line in sys.stdin:
            instant, heads, state = line.rstrip('\n').split('\t')
            state = json.loads(state)
            files = {}
            if kind == 'records':
                records = []
                for key in state:
                    record = state[key]
                    if not isinstance(record, dict): continue
                    shown = {'id': key}
                    for field in ['startTime', 'endTime', 'tagId']:
                        if field in record: shown[field] = date(record[field]) if field != 'tagId' else record[field]
                    if 'comment' in record:
                        comment = record['comment']
                        shown['comment'] = comment['_text'] if isinstance(comment, dict) and '_text' in comment else comment
                    shown['images'] = record.get('images', [])
                    for field in sorted(record):
                        if field not in shown: shown[field] = record[field]
                    start = record.get('startTime')
                    stem = None
                    if isinstance(start, dict) and '_ts' in start:
                        stem = datetime.datetime.fromtimestamp(start['_ts'] // 1000, tz=datetime.timezone.utc).strftime('%Y-%m-%d_%H%M%S')
                    records.append((key, stem, dump(shown)))
                stems = [stem for _, stem, _ in records if stem]
                for key, stem, text in records:
                    name = key + '.json' if stem is None else (stem + '_' + key[:8] + '.json' if stems.count(stem) > 1 else stem + '.json')
                    files[name] = text
            else:
                tags = []
                for key in state:
                    tag = state[key]
                    shown = {'id': key}
                    for field in ['name', 'color', 'createdAt', 'isArchived']:
                        if field in tag: shown[field] = date(tag[field])
                    for field in sorted(tag):
                        if field not in shown: shown[field] = tag[field]
                    created = tag.get('createdAt', {}).get('_ts', 0) if isinstance(tag.get('createdAt'), dict) else 0
                    tags.append((created, key, shown))
                tags.sort(key=lambda t: (t[0], t[1]))
                files['tags.json'] = dump({'tags': [t[2] for t in tags]})
            print(json.dumps({'instant': int(instant), 'files': files}, ensure_ascii=False))
        """#

    struct Expected: Decodable {
        var instant: Int64
        var files: [String: String]
    }

    static func expected(_ name: String, kind: String) throws -> [Expected] {
        let input = try Fixtures.text("\(name).snapshots", in: "history")
        let script = "import sys, io\nsys.stdin = io.StringIO(open(sys.argv[2], encoding='utf-8').read())\n" + renderScript
        let output = try PythonScript.run(script, arguments: [kind, try Fixtures.path("\(name).snapshots", in: "history")])
        #expect(!input.isEmpty)
        return try output.split(separator: "\n").map { try JSONDecoder().decode(Expected.self, from: Data($0.utf8)) }
    }

    /// A store of the two Minuta-shaped reference documents.
    func tree(in folder: String) throws -> StoreView {
        let store = folder + "/store"
        try FileManager.default.createDirectory(atPath: store + "/records/2024", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path("minuta-tags.automerge"), toPath: store + "/tags.automerge")
        try FileManager.default.copyItem(atPath: try Fixtures.path("minuta-month.automerge"), toPath: store + "/records/2024/03.automerge")
        return StoreView(store: try Store(folder: FilePath(store), timeZone: .utc))
    }

    @Test("a snapshot at each effective time of a month document shows the reference's records of then")
    func monthSnapshots() throws {
        let expected = try Self.expected("minuta-month", kind: "records")
        #expect(expected.count == 98)
        try withTemporaryDirectory { folder in
            let tree = try tree(in: folder)
            for snapshot in expected {
                let path = "/.minutafs/history/" + ISO8601.string(milliseconds: snapshot.instant) + "/records/2024/03"
                var shown: [String: String] = [:]
                for entry in try tree.entries(inDirectory: path) {
                    shown[entry.name] = String(decoding: try tree.contents(ofPath: path + "/" + entry.name), as: UTF8.self)
                }
                #expect(shown == snapshot.files, "\(path)")
                // One millisecond earlier, the changes of that instant are not in yet.
                let before = "/.minutafs/history/" + ISO8601.string(milliseconds: snapshot.instant - 1) + "/records/2024/03"
                if let earlier = expected.last(where: { $0.instant < snapshot.instant }) {
                    #expect(Set(try tree.entries(inDirectory: before).map(\.name)) == Set(earlier.files.keys), "\(before)")
                }
            }
        }
    }

    @Test("a snapshot at each effective time of the tags document shows the reference's tags.json of then")
    func tagSnapshots() throws {
        let expected = try Self.expected("minuta-tags", kind: "tags")
        #expect(expected.count == 9)
        try withTemporaryDirectory { folder in
            let tree = try tree(in: folder)
            for snapshot in expected {
                let path = "/.minutafs/history/" + ISO8601.string(milliseconds: snapshot.instant) + "/tags.json"
                #expect(String(decoding: try tree.contents(ofPath: path), as: UTF8.self) == snapshot.files["tags.json"], "\(path)")
            }
        }
    }
}
