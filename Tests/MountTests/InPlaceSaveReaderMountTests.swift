import Foundation
import Testing
import TestSupport

/// A save in place (`open(O_TRUNC)`, write, close: shell redirection, vim's `backupcopy=yes`, Python's
/// `open(path, "w")`) is not atomic for readers, on any disk: a reader that opens the file between the
/// truncation and the write finds it empty. But what a read returns is one version: while one process
/// saves a record in place over and over, two others open and read it to the end in a loop, and every
/// read is empty or one whole version the writer wrote, never one cut at another version's length or
/// padded with NUL bytes to it. About 8 s by default, 20 s with `SOAK=1`.
@Suite(.serialized)
struct InPlaceSaveReaderMountTests {
    static let seconds = ProcessInfo.processInfo.environment["SOAK"] == "1" ? 20 : 8

    /// The writer and the two readers, one process each. The writer prints every comment it saved; each
    /// reader prints the comments of the reads that parsed and its other reads by kind. The versions differ
    /// in length (a comment of 0 to 96 `x`, indentation 0 to 2), so a size of one and the bytes of another
    /// do not parse, or parse to a comment never written.
    static let script = #"""
        import json, multiprocessing, os, sys, time

        path, seconds = sys.argv[1], float(sys.argv[2])

        def writer(deadline, queue):
            with open(path) as f:
                record = json.load(f)
            saved, index = [record.get("comment")], 0
            while time.time() < deadline:
                index += 1
                record["comment"] = "version %d " % index + "x" * (index % 97)
                saved.append(record["comment"])
                with open(path, "w") as out:
                    out.write(json.dumps(record, indent=index % 3))
            queue.put({"saved": saved})

        def reader(deadline, queue):
            kinds = {"error": 0, "NUL": 0, "cut": 0}
            seen, reads, empty, samples = set(), 0, 0, []
            while time.time() < deadline:
                reads += 1
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError:
                    kinds["error"] += 1
                    continue
                if not data:
                    empty += 1
                elif b"\0" in data:
                    kinds["NUL"] += 1
                    samples.append("%d bytes: %r" % (len(data), data[:60]))
                else:
                    try:
                        seen.add(json.loads(data).get("comment"))
                    except ValueError:
                        kinds["cut"] += 1
                        samples.append("%d bytes: %r" % (len(data), data[-60:]))
            queue.put({"reads": reads, "empty": empty, "kinds": kinds, "seen": sorted(seen, key=str), "samples": samples[:3]})

        if __name__ == "__main__":
            deadline = time.time() + seconds
            queue = multiprocessing.Queue()
            processes = [multiprocessing.Process(target=writer, args=(deadline, queue))]
            processes += [multiprocessing.Process(target=reader, args=(deadline, queue)) for _ in range(2)]
            for process in processes: process.start()
            results = [queue.get() for _ in processes]
            for process in processes: process.join()
            print(json.dumps(results))
        """#

    @Test("two readers during in-place saves read nothing or one whole version: never cut, never NUL bytes")
    func readersSeeOneVersion() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder, environment: ["XDG_STATE_HOME": folder + "/state"])
            let names = try FileManager.default.contentsOfDirectory(atPath: mounted.january).filter { $0.hasSuffix(".json") }.sorted()
            let file = mounted.january + "/" + (try #require(names.first))
            let scriptPath = folder + "/readers.py"
            try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            let run = try Shell.run("python3 \"$s\" \"$f\" \(Self.seconds)", environment: ["s": scriptPath, "f": file])
            try #require(run.status == 0, "the script failed: \(run.output)")

            let report = run.output.split(separator: "\n").last.map(String.init) ?? ""
            let results = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [[String: Any]])
            let writer = try #require(results.first { $0["saved"] != nil })
            func comments(_ value: Any?) -> [String] { (value as? [Any] ?? []).map { $0 as? String ?? "<none>" } }
            let savedInOrder = comments(writer["saved"])
            let saved = Set(savedInOrder)
            let readers = results.filter { $0["reads"] != nil }
            try #require(readers.count == 2)
            print("in-place saves: \(saved.count - 1) in \(Self.seconds) s")
            for (index, reader) in readers.enumerated() {
                let reads = reader["reads"] as? Int ?? 0
                let kinds = reader["kinds"] as? [String: Int] ?? [:]
                let seen = Set(comments(reader["seen"]))
                print("reader \(index): \(reads) reads, \(reader["empty"] as? Int ?? 0) empty, \(seen.count) versions, failures \(kinds.sorted { $0.key < $1.key })")
                #expect(kinds.count == 3, "reader \(index) reported \(kinds)")
                for sample in reader["samples"] as? [String] ?? [] { print("reader \(index) read \(sample)") }
                #expect(reads > 100, "reader \(index) barely ran")
                for (kind, count) in kinds {
                    #expect(count == 0, "reader \(index): \(count) of \(reads) reads were \(kind)")
                }
                #expect(seen.count > 1, "reader \(index) saw \(seen.count) versions")
                #expect(seen.isSubset(of: saved), "reader \(index) read versions never written: \(seen.subtracting(saved).sorted().prefix(3))")
            }
            #expect(saved.count > 20, "the writer barely saved")
            let final = try JSONSerialization.jsonObject(with: Data(try Fixtures.contents(ofFileAtPath: file))) as? [String: Any]
            #expect(final?["comment"] as? String == savedInOrder.last)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/errors").isEmpty)
            #expect(mounted.unmount() == 0)
        }
    }
}
