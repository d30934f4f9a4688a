import Foundation

/// The command line's bytes as the kernel gave them. Swift decodes each argument as UTF-8 and puts
/// U+FFFD in place of bytes that are not: a tag named `bad\xff` would be created as `bad�`, and a path
/// with such a name would name another file. An argument that is not UTF-8 is a usage error instead.
enum ArgumentEncoding {
    /// The first argument (1 for the first after the program's name) that is not valid UTF-8, shown
    /// with its bytes that are not as `\xHH`; nil when every argument is UTF-8.
    static func firstInvalid() -> (position: Int, shown: String)? {
        let count = Int(CommandLine.argc)
        for position in 1..<max(count, 1) {
            guard let argument = CommandLine.unsafeArgv[position] else { continue }
            if case .invalid(let shown) = decode(argument) { return (position, shown) }
        }
        return nil
    }

    /// A C string from the kernel (an argument, an environment variable) as text, or its bytes shown
    /// with those that are not UTF-8 as `\xHH`.
    enum Decoded {
        case text(String)
        case invalid(shown: String)
    }

    static func decode(_ raw: UnsafePointer<CChar>) -> Decoded {
        if let text = String(validatingCString: raw) { return .text(text) }
        return .invalid(shown: shown(Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) }))
    }

    /// `bytes` with each byte that is not part of valid UTF-8 written as `\xHH`.
    static func shown(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence starting here (1 to 4 bytes), else one byte escaped.
            var taken = false
            for length in 1...4 where index + length <= bytes.count {
                if let scalar = String(validating: bytes[index..<index + length], as: UTF8.self), scalar.unicodeScalars.count == 1 {
                    text += scalar
                    index += length
                    taken = true
                    break
                }
            }
            if !taken {
                text += String(format: "\\x%02x", bytes[index])
                index += 1
            }
        }
        return text
    }
}
