import Foundation
import Testing
import TestSupport

/// A save by rename is atomic for readers: while one process saves a record over
/// and over the way VS Code, gedit and Python's `os.replace` do (a temporary file in the same folder,
/// write, fsync, rename over the record), two other processes open and read the record in a loop, and a
/// third lists its folder. On ext4 every read shows the old version or the new one, whole; so must the
/// mount. About 8 s by default, 20 s with `SOAK=1`.
@Suite(.serialized)
struct RenameSaveReaderMountTests {
    static let seconds = ProcessInfo.processInfo.environment["SOAK"] == "1" ? 20 : 8

    /// The writer, the two readers and the lister, one process each. The writer prints every comment it saved (before
    /// each rename); each reader prints what it saw: the comments of the reads that parsed, and its failures
    /// by kind; the lister lists the folder with `stat` of each entry (as `ls -l` does). Nothing is judged
    /// here: the test compares the readers' comments with the writer's.
    static let script = #"""
        import errno, json, multiprocessing, os, sys, tempfile, time

        path, seconds = sys.argv[1], float(sys.argv[2])
        folder = os.path.dirname(path)

        def writer(deadline, queue):
            with open(path) as f:
                record = json.load(f)
            original_keys = sorted(record.keys())
            saved, index = [record.get("comment")], 0
            while time.time() < deadline:
                index += 1
                record["comment"] = "version %d " % index + "x" * (index % 97)
                saved.append(record["comment"])
                fd, temporary = tempfile.mkstemp(dir=folder)
                with os.fdopen(fd, "w") as out:
                    json.dump(record, out, indent=index % 3)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temporary, path)
            queue.put({"saved": saved, "keys": [original_keys, sorted(record.keys())]})

        def reader(deadline, queue):
            kinds = {"ENOENT": 0, "empty": 0, "NUL": 0, "cut": 0, "other error": 0}
            seen, key_sets, reads = set(), set(), 0
            while time.time() < deadline:
                reads += 1
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except FileNotFoundError:
                    kinds["ENOENT"] += 1
                    continue
                except OSError as error:
                    kinds["other error"] += 1
                    continue
                if not data:
                    kinds["empty"] += 1
                elif b"\0" in data:
                    kinds["NUL"] += 1
                else:
                    try:
                        value = json.loads(data)
                        seen.add(value.get("comment"))
                        key_sets.add(tuple(sorted(value.keys())))
                    except ValueError:
                        kinds["cut"] += 1
            queue.put({"reads": reads, "kinds": kinds, "seen": sorted(seen, key=str), "keys": [list(k) for k in key_sets]})

        def lister(deadline, queue):
            # ls -l of the folder meanwhile: readdirplus gives the kernel attributes with each inode too.
            listings = 0
            while time.time() < deadline:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        try:
                            entry.stat()
                        except FileNotFoundError:
                            pass  # a temporary file renamed away since the listing, as on any disk
                listings += 1
            queue.put({"listings": listings})

        if __name__ == "__main__":
            deadline = time.time() + seconds
            queue = multiprocessing.Queue()
            processes = [multiprocessing.Process(target=writer, args=(deadline, queue))]
            processes += [multiprocessing.Process(target=reader, args=(deadline, queue)) for _ in range(2)]
            processes.append(multiprocessing.Process(target=lister, args=(deadline, queue)))
            for process in processes: process.start()
            results = [queue.get() for _ in processes]
            for process in processes: process.join()
            print(json.dumps(results))
        """#

    @Test("two readers during rename saves see the old version or the new one, whole: never ENOENT, cut, empty or NUL")
    func readersSeeWholeVersions() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["XDG_STATE_HOME": folder + "/state"])
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let file = mounted.january + "/" + (try #require(names.first))
            let scriptPath = folder + "/readers.py"
            try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            let run = try Shell.run("python3 \"$s\" \"$f\" \(Self.seconds)", environment: ["s": scriptPath, "f": file])
            try #require(run.status == 0, "the script failed: \(run.output)")

            // The last line is the script's report (anything Python warned about comes before it).
            let report = run.output.split(separator: "\n").last.map(String.init) ?? ""
            let results = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [[String: Any]])
            let writer = try #require(results.first { $0["saved"] != nil })
            // JSON null (a record without a comment) is NSNull here, not nil.
            func comments(_ value: Any?) -> [String] { (value as? [Any] ?? []).map { $0 as? String ?? "<none>" } }
            let savedInOrder = comments(writer["saved"])
            let saved = Set(savedInOrder)
            let keys = try #require(writer["keys"] as? [[String]])
            let readers = results.filter { $0["reads"] != nil }
            try #require(readers.count == 2)
            #expect(results.contains { ($0["listings"] as? Int ?? 0) > 0 }, "the folder was never listed")
            print("rename saves: \(saved.count - 1) in \(Self.seconds) s")
            for (index, reader) in readers.enumerated() {
                let reads = reader["reads"] as? Int ?? 0
                let kinds = reader["kinds"] as? [String: Int] ?? [:]
                let seen = Set(comments(reader["seen"]))
                let keySets = reader["keys"] as? [[String]] ?? []
                #expect(kinds.count == 5, "reader \(index) reported \(kinds)")
                print("reader \(index): \(reads) reads, failures \(kinds.sorted { $0.key < $1.key })")
                #expect(reads > 100, "reader \(index) barely ran")
                for (kind, count) in kinds {
                    #expect(count == 0, "reader \(index): \(count) of \(reads) reads were \(kind)")
                }
                #expect(seen.count > 1, "reader \(index) saw \(seen.count) versions")
                #expect(seen.isSubset(of: saved), "reader \(index) read versions never written: \(seen.subtracting(saved).sorted().prefix(3))")
                #expect(keySets.allSatisfy(keys.contains), "reader \(index) read records with other fields: \(keySets)")
            }
            #expect(saved.count > 20, "the writer barely saved")
            // The last save is what the record shows afterwards.
            let final = try JSONSerialization.jsonObject(with: Data(try Fixtures.contents(ofFileAtPath: file))) as? [String: Any]
            #expect(final?["comment"] as? String == savedInOrder.last)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }
}
