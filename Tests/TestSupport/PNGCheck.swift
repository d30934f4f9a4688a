import Foundation

/// Renders an SVG with Debian's `rsvg-convert` (librsvg2-bin) and reads the PNG back with a decoder
/// written in Python (`zlib` + `struct`): the picture's size and how many pixels have each color.
public enum PNGCheck {
    public struct Rendering: Sendable {
        public var svgWidth: Int
        public var svgHeight: Int
        public var pngWidth: Int
        public var pngHeight: Int
        /// `#RRGGBB` (upper case) to the number of fully opaque pixels of exactly that color.
        public var pixels: [String: Int]
        /// The text of every `<text>` element, in order.
        public var texts: [String]
        /// The smallest box (left, top, right, bottom, in pixels, inclusive) holding every opaque pixel
        /// that is not white; nil when there is none.
        public var ink: (left: Int, top: Int, right: Int, bottom: Int)?
    }

    static let script = #"""
        import json, struct, subprocess, sys, zlib
        import xml.etree.ElementTree as ET
        svg_path, png_path = sys.argv[1], sys.argv[2]
        colors = [c.upper() for c in sys.argv[3:]]
        root = ET.parse(svg_path).getroot()  # raises on XML that is not well-formed
        ns = '{http://www.w3.org/2000/svg}'
        texts = [''.join(t.itertext()) for t in root.iter(ns + 'text')]
        subprocess.run(['rsvg-convert', '-o', png_path, svg_path], check=True)
        data = open(png_path, 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, color_type = struct.unpack('>IIBB', body[:10])
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        assert depth == 8 and color_type in (2, 6), (depth, color_type)
        bpp = 4 if color_type == 6 else 3
        raw = zlib.decompress(idat)
        stride = width * bpp
        previous = bytearray(stride)
        counts = {c: 0 for c in colors}
        box = None
        for y in range(height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for x in range(width):
                px = line[x * bpp:x * bpp + bpp]
                if bpp == 4 and px[3] != 255:
                    continue
                key = '#%02X%02X%02X' % (px[0], px[1], px[2])
                if key in counts:
                    counts[key] += 1
                if key != '#FFFFFF':
                    box = [x, y, x, y] if box is None else [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
            previous = line
        print(json.dumps({'svgWidth': int(float(root.get('width'))), 'svgHeight': int(float(root.get('height'))),
                          'pngWidth': width, 'pngHeight': height, 'pixels': counts, 'texts': texts, 'ink': box}))
        """#

    /// Checks that `svg` is well-formed XML, renders it and counts the pixels of `colors` (`#RRGGBB`).
    public static func render(_ svg: [UInt8], counting colors: [String]) throws -> Rendering {
        try withTemporaryDirectory { folder in
            let svgPath = folder + "/picture.svg"
            guard FileManager.default.createFile(atPath: svgPath, contents: Data(svg)) else { throw FixtureError("cannot write \(svgPath)") }
            let output = try PythonScript.run(script, arguments: [svgPath, folder + "/picture.png"] + colors)
            guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
                  let svgWidth = object["svgWidth"] as? Int, let svgHeight = object["svgHeight"] as? Int,
                  let pngWidth = object["pngWidth"] as? Int, let pngHeight = object["pngHeight"] as? Int,
                  let pixels = object["pixels"] as? [String: Int], let texts = object["texts"] as? [String]
            else { throw FixtureError("the PNG check printed \(output)") }
            let box = (object["ink"] as? [Any])?.compactMap { $0 as? Int } ?? []
            let ink = box.count == 4 ? (box[0], box[1], box[2], box[3]) : nil
            return Rendering(svgWidth: svgWidth, svgHeight: svgHeight, pngWidth: pngWidth, pngHeight: pngHeight, pixels: pixels, texts: texts, ink: ink)
        }
    }
}
