import AutomergeKit
import MinutaStore
/// Tiny but valid image files for the demo store: a 16x16 PNG (a two-colour gradient) and an 8x8
/// baseline JPEG (one colour), made from scratch so the demo needs no image library.
enum DemoImage {
    typealias Colour = (red: UInt8, green: UInt8, blue: UInt8)

    // MARK: PNG

    /// A 16x16 RGB PNG shading from `from` (top left) to `to` (bottom right). The pixels are
    /// stored uncompressed in a zlib stream (stored DEFLATE block), which every decoder reads.
    static func png(from: Colour, to: Colour) -> [UInt8] {
        let size = 16
        var raw: [UInt8] = []
        for y in 0..<size {
            raw.append(0) // filter: none
            for x in 0..<size {
                let t = Double(x + y) / Double(2 * (size - 1))
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - t) + Double(b) * t).rounded()) }
                raw += [mix(from.red, to.red), mix(from.green, to.green), mix(from.blue, to.blue)]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01, 0x01]
        let length = UInt16(raw.count)
        zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        zlib += raw
        zlib += bigEndian(adler32(raw))

        var header: [UInt8] = bigEndian(UInt32(size)) + bigEndian(UInt32(size))
        header += [8, 2, 0, 0, 0] // 8 bits, RGB, deflate, adaptive filters, no interlace
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", header)
        file += chunk("IDAT", zlib)
        file += chunk("IEND", [])
        return file
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    // MARK: JPEG

    /// An 8x8 baseline JFIF JPEG of one colour: one block per YCbCr component holding only its DC
    /// coefficient, with a quantisation table of ones and minimal Huffman tables (DC: categories
    /// 0 to 11 with 4-bit codes; AC: end-of-block only).
    static func jpeg(_ colour: Colour) -> [UInt8] {
        let r = Double(colour.red), g = Double(colour.green), b = Double(colour.blue)
        let components = [
            0.299 * r + 0.587 * g + 0.114 * b,
            128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
            128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
        ].map { Int(min(255, max(0, $0.rounded()))) }

        var file: [UInt8] = [0xFF, 0xD8]
        file += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        file += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        file += segment(0xC0, [8, 0, 8, 0, 8, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
        var tables: [UInt8] = [0x00] + [0, 0, 0, 12] + [UInt8](repeating: 0, count: 12) + Array(0...11)
        tables += [0x10] + [0, 2] + [UInt8](repeating: 0, count: 14) + [0x00, 0x01]
        file += segment(0xC4, tables)
        file += segment(0xDA, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0])

        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
        }
        for level in components {
            let dc = 8 * (level - 128) // the DCT's DC term of a flat block, quantised by 1
            let category = dc == 0 ? 0 : Int.bitWidth - abs(dc).leadingZeroBitCount
            put(category, 4)
            if category > 0 { put(dc > 0 ? dc : dc + (1 << category) - 1, category) }
            put(0b00, 2) // end of block
        }
        while bits.count % 8 != 0 { bits.append(true) }
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for bit in bits[start..<start + 8] { byte = byte << 1 | (bit ? 1 : 0) }
            file.append(byte)
            if byte == 0xFF { file.append(0x00) }
        }
        file += [0xFF, 0xD9]
        return file
    }

    private static func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
        let length = data.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + data
    }
}
