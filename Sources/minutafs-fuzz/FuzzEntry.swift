// minutafs-fuzz: feeds inputs to `Document.load` and checks what it gives (see LoadFuzzing).
//
// `make fuzz` builds it with libFuzzer and the address sanitizer (`-sanitize=fuzzer,address
// -D FUZZING`); `main` then hands over to libFuzzer's driver, which takes libFuzzer's options
// (`-max_total_time=60 CORPUS_DIR`). Built normally (`swift build`), it replays crash files:
//
//   minutafs-fuzz FILE...      runs each file through the same checks; a crash names the file
//   minutafs-fuzz verdicts [--save-to DIR] FILE...
//                              what loading each file gives, for `make fuzz-diff` (see Verdicts)
import Foundation

#if FUZZING
/// libFuzzer's entry for programs that keep their own `main` (SwiftPM renames and links ours, so
/// libFuzzer's `main` cannot be used). The corresponding C function is `LLVMFuzzerRunDriver`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// libFuzzer calls this with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    LoadFuzzing.exercise(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

@main
struct FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzz))
    }
}
#else
@main
struct Replayer {
    static func main() {
        if CommandLine.arguments.dropFirst().first == "verdicts" {
            Verdicts.run(Array(CommandLine.arguments.dropFirst(2)))
            return
        }
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("minutafs-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            FileHandle.standardError.write(Data("\(path): ".utf8))
            LoadFuzzing.exercise([UInt8](data))
            FileHandle.standardError.write(Data("ok\n".utf8))
        }
    }
}
#endif
