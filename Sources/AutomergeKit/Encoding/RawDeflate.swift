// RawDeflate.swift
//
// A pure-Swift raw DEFLATE (RFC 1951) compressor whose output is byte-identical
// to miniz_oxide 0.8.x at compression level 6 with a raw (headerless) stream,
// i.e. to what Rust's
//
//     flate2::bufread::DeflateEncoder::new(input, flate2::Compression::default())
//
// produces with flate2's default miniz_oxide backend. The Automerge reference
// implementation compresses document columns exactly that way, so reproducing
// its saved files byte for byte requires reproducing miniz_oxide's *choices*
// (hash chains, probe limits, lazy matching, block boundaries, Huffman code
// construction and stored-block fallback), not just producing valid DEFLATE.
//
// This file is a port of behaviour from miniz_oxide's `deflate/core.rs`
// (followed at tag 0.8.9). The compressor's output for this configuration is
// the same in 0.8.0, 0.8.9 and 0.9.0 (checked by building those versions from
// source and comparing on ~2,000 inputs). Function names in the comments refer
// to that file. Only the configuration used by flate2's `Compression::default()` is
// implemented:
//
//   * level 6 -> `create_comp_flags_from_zip_params(6, -15, 0)` = 128 probes,
//     lazy parsing (no TDEFL_GREEDY_PARSING_FLAG), no zlib header,
//     so `compress_inner` dispatches to `compress_normal`;
//   * `probes_from_flags(128)` = [44, 12] (initial match / long match).
//
// Feeding: flate2's bufread encoder hands miniz the whole input with
// `MZFlush::None`, then calls again with an empty input and `MZFlush::Finish`.
// miniz_oxide's streaming state machine makes the output independent of how
// the input and output buffers are chunked, so this port runs the equivalent
// single pass over the whole input followed by the final `flush_block`.

/// Raw DEFLATE (RFC 1951) compression, byte-identical to miniz_oxide at level 6
/// (flate2's `Compression::default()`), raw stream without zlib header.
enum RawDeflate {
    /// Compresses `input` into a raw DEFLATE stream.
    ///
    /// Empty input yields `[0x03, 0x00]` (a final, empty static block), exactly
    /// like miniz_oxide.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var compressor = DeflateCompressor(expectedInputSize: input.count)
        input.withUnsafeBufferPointer { src in
            compressor.compressNormal(src)
        }
        // `compress_inner`: once all input is consumed and the lookahead is
        // empty, the final block is flushed with TDEFLFlush::Finish.
        compressor.flushBlock(isFinal: true)
        return compressor.takeOutput()
    }
}

// All implementation details live in this namespace so that nothing leaks
// into the module's global scope.
extension RawDeflate {
    // MARK: - Constants (miniz_oxide `deflate/buffer.rs` and `deflate/core.rs`)

    /// `LZ_DICT_SIZE`: size of the sliding window / ring buffer.
    fileprivate static let dictSize = 32_768
    /// `LZ_DICT_SIZE_MASK`
    fileprivate static let dictMask = dictSize - 1
    /// `MAX_MATCH_LEN`
    fileprivate static let maxMatchLen = 258
    /// `MIN_MATCH_LEN`
    fileprivate static let minMatchLen = 3
    /// `LZ_DICT_FULL_SIZE`: the ring buffer plus a mirror of its first
    /// `MAX_MATCH_LEN - 1` bytes plus one padding byte. The exact physical layout
    /// matters: `find_match` reads (unmasked) two bytes at up to index
    /// `LZ_DICT_FULL_SIZE - 1`, and the padding byte is never written.
    fileprivate static let dictFullSize = dictSize + maxMatchLen - 1 + 1
    /// Extra zeroed slack after the dictionary so that no read can ever leave the
    /// allocation (miniz would panic instead; we never read it in practice).
    fileprivate static let dictAllocSize = dictFullSize + 16
    /// `LZ_HASH_BITS` = 15, `LZ_HASH_SHIFT` = 5, `LZ_HASH_SIZE` = 32768.
    fileprivate static let hashShift: UInt32 = 5
    fileprivate static let hashMask: UInt32 = (1 << 15) - 1
    fileprivate static let hashSize = 1 << 15
    /// `LZ_CODE_BUF_SIZE`: the buffer of LZ77 codes accumulated for one block.
    fileprivate static let codeBufSize = 64 * 1024

    /// `probes_from_flags(NUM_PROBES[6])`: `[1 + (128 + 2) / 3, 1 + (128 / 4 + 2) / 3]`.
    fileprivate static let maxProbesShort = 1 + (128 + 2) / 3  // 44, used while match_len < 32
    fileprivate static let maxProbesLong = 1 + ((128 >> 2) + 2) / 3  // 12, used once match_len >= 32

    /// `HUFFMAN_LENGTH_ORDER` from `shared.rs` (RFC 1951 §3.2.7).
    fileprivate static let huffmanLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// miniz_oxide's `LEN_SYM`, `LEN_EXTRA`, `SMALL_DIST_SYM`, `SMALL_DIST_EXTRA`,
    /// `LARGE_DIST_SYM` and `LARGE_DIST_EXTRA`, derived from the RFC 1951
    /// length/distance code tables and packed into one byte buffer (at the
    /// offsets below) so the hot loops can index a single raw pointer.
    fileprivate enum Tables {
        /// Indexed by `match_len - 3` (0...255): literal/length symbol minus
        /// 256 (1...29), as miniz_oxide stores it.
        static let lenSym = 0
        /// Indexed by `match_len - 3`: number of extra length bits.
        static let lenExtra = 256
        /// Indexed by `distance - 1` when that is below 512.
        static let smallDistSym = 512
        static let smallDistExtra = 1024
        /// Indexed by `(distance - 1) >> 8` when `distance - 1 >= 512`
        /// (entries 0 and 1 are unused, as in miniz_oxide).
        static let largeDistSym = 1536
        static let largeDistExtra = 1664
        static let count = 1792

        static let packed: [UInt8] = {
            let lenBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                            35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227]
            let lenExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                         3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]
            let distBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                             257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                             8193, 12289, 16385, 24577]
            let distExtraBits: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                          7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
            /// Distance code for `distance - 1`.
            func distCode(_ d: Int) -> Int {
                var code = 0
                while code + 1 < distBases.count && distBases[code + 1] - 1 <= d { code += 1 }
                return code
            }

            var t = [UInt8](repeating: 0, count: count)
            // Length 258 (index 255) is symbol 285 with no extra bits; every
            // other length uses the regular code table (284 covers 227...257).
            t[lenSym + 255] = 29
            for code in 0..<lenBases.count {
                let start = lenBases[code] - 3
                let end = min(start + (1 << Int(lenExtraBits[code])), 255)
                for l in start..<end {
                    t[lenSym + l] = UInt8(code + 1)
                    t[lenExtra + l] = lenExtraBits[code]
                }
            }
            for d in 0..<512 {
                t[smallDistSym + d] = UInt8(distCode(d))
                t[smallDistExtra + d] = distExtraBits[distCode(d)]
            }
            for i in 2..<128 {
                t[largeDistSym + i] = UInt8(distCode(i << 8))
                t[largeDistExtra + i] = distExtraBits[distCode(i << 8)]
            }
            return t
        }()
    }

    // MARK: - Huffman code construction (`HuffmanOxide`)

    /// `SymFreq`
    fileprivate struct SymFreq {
        var key: UInt16
        var symIndex: UInt16
    }

    /// The static/fixed Huffman codes of RFC 1951 §3.2.6, built the way
    /// `HuffmanOxide::start_static_block` builds them (via `optimize_table` with
    /// `static_table = true`).
    fileprivate enum StaticCodes {
        static let litLenSizes: [UInt8] = (0..<288).map { sym -> UInt8 in
            switch sym {
            case 0..<144: return 8
            case 144..<256: return 9
            case 256..<280: return 7
            default: return 8
            }
        }
        static let litLenCodes: [UInt16] = HuffmanBuilder.canonicalCodes(sizes: litLenSizes, limit: 15)
        static let distSizes = [UInt8](repeating: 5, count: 32)
        static let distCodes: [UInt16] = HuffmanBuilder.canonicalCodes(sizes: distSizes, limit: 15)
    }

    /// Ports of the code-length computations in `HuffmanOxide`.
    fileprivate enum HuffmanBuilder {
        /// `HuffmanOxide::radix_sort_symbols`: stable LSD radix sort on the 16-bit key.
        static func radixSortSymbols(_ symbols: [SymFreq]) -> [SymFreq] {
            var hist0 = [Int](repeating: 0, count: 256)
            var hist1 = [Int](repeating: 0, count: 256)
            for s in symbols {
                hist0[Int(s.key & 0xFF)] += 1
                hist1[Int((s.key >> 8) & 0xFF)] += 1
            }
            let passes = symbols.count == hist1[0] ? 1 : 2
            var current = symbols
            var scratch = symbols
            for pass in 0..<passes {
                let hist = pass == 0 ? hist0 : hist1
                var offsets = [Int](repeating: 0, count: 256)
                var offset = 0
                for i in 0..<256 {
                    offsets[i] = offset
                    offset += hist[i]
                }
                let shift = UInt16(pass * 8)
                for s in current {
                    let j = Int((s.key >> shift) & 0xFF)
                    scratch[offsets[j]] = s
                    offsets[j] += 1
                }
                swap(&current, &scratch)
            }
            return current
        }

        /// `HuffmanOxide::calculate_minimum_redundancy`: in-place Moffat/Katajainen
        /// computation of code lengths for symbols sorted by ascending frequency.
        /// Arithmetic wraps like Rust release builds do.
        static func calculateMinimumRedundancy(_ a: inout [SymFreq]) {
            let n = a.count
            if n == 0 { return }
            if n == 1 {
                a[0].key = 1
                return
            }
            a[0].key = a[0].key &+ a[1].key
            var root = 0
            var leaf = 2
            for next in 1..<(n - 1) {
                if leaf >= n || a[root].key < a[leaf].key {
                    a[next].key = a[root].key
                    a[root].key = UInt16(truncatingIfNeeded: next)
                    root += 1
                } else {
                    a[next].key = a[leaf].key
                    leaf += 1
                }
                if leaf >= n || (root < next && a[root].key < a[leaf].key) {
                    a[next].key = a[next].key &+ a[root].key
                    a[root].key = UInt16(truncatingIfNeeded: next)
                    root += 1
                } else {
                    a[next].key = a[next].key &+ a[leaf].key
                    leaf += 1
                }
            }
            a[n - 2].key = 0
            var next = n - 3
            while next >= 0 {
                a[next].key = a[Int(a[next].key)].key &+ 1
                next -= 1
            }
            var avbl = 1
            var used = 0
            var dpth: UInt16 = 0
            var root2 = n - 2
            var next2 = n - 1
            while avbl > 0 {
                while root2 >= 0 && a[root2].key == dpth {
                    used += 1
                    root2 -= 1
                }
                while avbl > used {
                    a[next2].key = dpth
                    next2 -= 1
                    avbl -= 1
                }
                avbl = 2 * used
                dpth &+= 1
                used = 0
            }
        }

        /// `HuffmanOxide::enforce_max_code_size`.
        static func enforceMaxCodeSize(_ numCodes: inout [Int], codeListLen: Int, maxCodeSize: Int) {
            if codeListLen <= 1 { return }
            for i in (maxCodeSize + 1)..<numCodes.count {
                numCodes[maxCodeSize] += numCodes[i]
            }
            var total: UInt32 = 0
            for i in 1...maxCodeSize {
                total = total &+ (UInt32(truncatingIfNeeded: numCodes[i]) << UInt32(maxCodeSize - i))
            }
            var t = UInt32(1) << UInt32(maxCodeSize)
            while t < total {
                numCodes[maxCodeSize] -= 1
                var i = maxCodeSize - 1
                while i >= 1 {
                    if numCodes[i] != 0 {
                        numCodes[i] -= 1
                        numCodes[i + 1] += 2
                        break
                    }
                    i -= 1
                }
                t += 1
            }
        }

        /// Second half of `HuffmanOxide::optimize_table`: canonical codes, stored
        /// bit-reversed (LSB-first) for direct output.
        static func canonicalCodes(sizes: [UInt8], limit: Int) -> [UInt16] {
            var numCodes = [Int](repeating: 0, count: 33)
            for s in sizes { numCodes[Int(s)] += 1 }
            return canonicalCodes(sizes: sizes, numCodes: numCodes, limit: limit)
        }

        static func canonicalCodes(sizes: [UInt8], numCodes: [Int], limit: Int) -> [UInt16] {
            var nextCode = [UInt32](repeating: 0, count: 16)
            var j = 0
            if limit >= 2 {
                for i in 2...limit {
                    j = (j + numCodes[i - 1]) << 1
                    nextCode[i] = UInt32(truncatingIfNeeded: j)
                }
            }
            var codes = [UInt16](repeating: 0, count: sizes.count)
            for (sym, size) in sizes.enumerated() where size != 0 {
                let s = Int(size)
                let code = UInt16(truncatingIfNeeded: nextCode[s])
                nextCode[s] &+= 1
                var rev: UInt16 = 0
                var c = code
                for _ in 0..<s {
                    rev = (rev << 1) | (c & 1)
                    c >>= 1
                }
                codes[sym] = rev
            }
            return codes
        }

        /// `HuffmanOxide::optimize_table` with `static_table = false`: builds
        /// length-limited Huffman code sizes and codes from symbol counts.
        static func optimizeTable(counts: [UInt16], tableLen: Int, codeSizeLimit: Int) -> (sizes: [UInt8], codes: [UInt16]) {
            var symbols: [SymFreq] = []
            symbols.reserveCapacity(tableLen)
            for i in 0..<tableLen where counts[i] != 0 {
                symbols.append(SymFreq(key: counts[i], symIndex: UInt16(i)))
            }
            let numUsed = symbols.count
            var sorted = radixSortSymbols(symbols)
            calculateMinimumRedundancy(&sorted)

            var numCodes = [Int](repeating: 0, count: 33)
            for s in sorted { numCodes[min(Int(s.key), 32)] += 1 }
            enforceMaxCodeSize(&numCodes, codeListLen: numUsed, maxCodeSize: codeSizeLimit)

            var sizes = [UInt8](repeating: 0, count: tableLen)
            var last = numUsed
            for i in 1...codeSizeLimit {
                let first = max(last - numCodes[i], 0)
                for k in first..<last {
                    sizes[Int(sorted[k].symIndex)] = UInt8(i)
                }
                last = first
            }
            let codes = canonicalCodes(sizes: sizes, numCodes: numCodes, limit: codeSizeLimit)
            return (sizes, codes)
        }
    }

    // MARK: - The compressor state (`CompressorOxide`)

    /// Mirrors the parts of `CompressorOxide` (`LZOxide`, `DictOxide`,
    /// `ParamsOxide`, `HuffmanOxide` counts, and the output bit buffer) that
    /// matter for a single level-6 raw stream.
    fileprivate struct DeflateCompressor: ~Copyable {
        // `HashBuffers`
        let dict: UnsafeMutablePointer<UInt8>
        let next: UnsafeMutablePointer<UInt16>
        let hash: UnsafeMutablePointer<UInt16>
        // `LZOxide::codes`
        let codes: UnsafeMutablePointer<UInt8>
        // `HuffmanOxide::count[0]` and `count[1]` (u16 counters, wrapping like Rust release).
        let litCounts: UnsafeMutablePointer<UInt16>
        let distCounts: UnsafeMutablePointer<UInt16>
        // `HuffmanOxide::codes` / `code_sizes` for the current block's
        // literal/length and distance tables.
        let litLenCodes: UnsafeMutablePointer<UInt16>
        let litLenSizes: UnsafeMutablePointer<UInt8>
        let distCodes: UnsafeMutablePointer<UInt16>
        let distSizes: UnsafeMutablePointer<UInt8>
        /// Copy of `Tables.packed`.
        let tables: UnsafeMutablePointer<UInt8>
        /// Scratch space for one block's Huffman-coded body: at most 16 bits are
        /// produced per LZ code byte, plus room for the final 8-byte store.
        let blockScratch: UnsafeMutablePointer<UInt8>
        static let blockScratchSize = 2 * codeBufSize + 64

        // `LZOxide`
        var codePosition = 1
        var flagPosition = 0
        var totalBytes = 0
        var numFlagsLeft = 8

        // `DictOxide`
        var codeBufDictPos = 0
        var lookaheadSize = 0
        var lookaheadPos = 0
        var size = 0

        // Output (`OutputBufferOxide`): bytes plus a pending bit buffer.
        var out: [UInt8] = []
        var bitBuffer: UInt64 = 0
        var bitsIn = 0

        /// Every table lives in one allocation (about 360 KB): one `malloc` and one `free` per
        /// compressed column instead of twelve, and an allocation that size teaches glibc to
        /// keep the memory for the next column instead of returning it (and faulting it in again).
        private let storage: UnsafeMutableRawPointer

        init(expectedInputSize: Int) {
            // UInt16 tables first (2-byte alignment), then the byte tables.
            let nextOffset = 0
            let hashOffset = nextOffset + dictSize * 2
            let litCountsOffset = hashOffset + hashSize * 2
            let distCountsOffset = litCountsOffset + 288 * 2
            let litLenCodesOffset = distCountsOffset + 32 * 2
            let distCodesOffset = litLenCodesOffset + 288 * 2
            let dictOffset = distCodesOffset + 32 * 2
            let codesOffset = dictOffset + dictAllocSize
            let litLenSizesOffset = codesOffset + codeBufSize
            let distSizesOffset = litLenSizesOffset + 288
            let tablesOffset = distSizesOffset + 32
            let scratchOffset = tablesOffset + Tables.count
            let totalSize = scratchOffset + Self.blockScratchSize
            storage = .allocate(byteCount: totalSize, alignment: 16)
            // Each table bound to its type and zeroed, as separate allocations were.
            next = (storage + nextOffset).initializeMemory(as: UInt16.self, repeating: 0, count: dictSize)
            hash = (storage + hashOffset).initializeMemory(as: UInt16.self, repeating: 0, count: hashSize)
            litCounts = (storage + litCountsOffset).initializeMemory(as: UInt16.self, repeating: 0, count: 288)
            distCounts = (storage + distCountsOffset).initializeMemory(as: UInt16.self, repeating: 0, count: 32)
            litLenCodes = (storage + litLenCodesOffset).initializeMemory(as: UInt16.self, repeating: 0, count: 288)
            distCodes = (storage + distCodesOffset).initializeMemory(as: UInt16.self, repeating: 0, count: 32)
            dict = (storage + dictOffset).initializeMemory(as: UInt8.self, repeating: 0, count: dictAllocSize)
            codes = (storage + codesOffset).initializeMemory(as: UInt8.self, repeating: 0, count: codeBufSize)
            litLenSizes = (storage + litLenSizesOffset).initializeMemory(as: UInt8.self, repeating: 0, count: 288)
            distSizes = (storage + distSizesOffset).initializeMemory(as: UInt8.self, repeating: 0, count: 32)
            let t = (storage + tablesOffset).initializeMemory(as: UInt8.self, repeating: 0, count: Tables.count)
            for (i, v) in Tables.packed.enumerated() where i < Tables.count { t[i] = v }
            tables = t
            // Only ever read after being written by `compressLZCodes`.
            blockScratch = (storage + scratchOffset).bindMemory(to: UInt8.self, capacity: Self.blockScratchSize)
            out.reserveCapacity(expectedInputSize / 2 + 64)
        }

        deinit {
            storage.deallocate()
        }

        mutating func takeOutput() -> [UInt8] {
            let result = out
            out = []
            return result
        }

        // MARK: Bit output (`OutputBufferOxide::put_bits` etc.)

        /// Appends `len` (<= 32) bits; flushes whole bytes so that `bitsIn < 8`.
        @inline(__always)
        mutating func putBits(_ bits: UInt32, _ len: Int) {
            bitBuffer |= UInt64(bits) << UInt64(bitsIn)
            bitsIn += len
            while bitsIn >= 8 {
                out.append(UInt8(truncatingIfNeeded: bitBuffer))
                bitBuffer >>= 8
                bitsIn -= 8
            }
        }

        /// `OutputBufferOxide::pad_to_bytes`
        mutating func padToBytes() {
            if bitsIn != 0 { putBits(0, 8 - bitsIn) }
        }

        // MARK: LZ code buffer (`LZOxide`, `record_literal`, `record_match`)

        @inline(__always)
        mutating func consumeFlag() {
            numFlagsLeft -= 1
            if numFlagsLeft == 0 {
                numFlagsLeft = 8
                // `plant_flag`
                flagPosition = codePosition
                codePosition += 1
            }
        }

        /// `record_literal`
        @inline(__always)
        mutating func recordLiteral(_ lit: UInt8) {
            totalBytes += 1
            codes[codePosition] = lit
            codePosition += 1
            codes[flagPosition] >>= 1
            consumeFlag()
            litCounts[Int(lit)] &+= 1
        }

        /// `record_match`
        @inline(__always)
        mutating func recordMatch(length: Int, distance: Int) {
            totalBytes += length
            let dist = distance - 1
            let len = (length - minMatchLen) & 0xFF
            codes[codePosition] = UInt8(truncatingIfNeeded: len)
            codes[codePosition + 1] = UInt8(truncatingIfNeeded: dist)
            codes[codePosition + 2] = UInt8(truncatingIfNeeded: dist >> 8)
            codePosition += 3
            codes[flagPosition] = (codes[flagPosition] >> 1) | 0x80
            consumeFlag()
            let symbol: Int
            if dist < 512 {
                symbol = Int(tables[Tables.smallDistSym + dist])
            } else {
                symbol = Int(tables[Tables.largeDistSym + ((dist >> 8) & 127)])
            }
            distCounts[symbol] &+= 1
            litCounts[Int(tables[Tables.lenSym + len]) + 256] &+= 1
        }

        // MARK: Main loop (`compress_normal`)

        /// Port of `compress_normal` (lazy parsing), run over the complete input
        /// with TDEFLFlush::Finish semantics (i.e. without stopping when the
        /// lookahead is not full).
        mutating func compressNormal(_ src: UnsafeBufferPointer<UInt8>) {
            let inLen = src.count
            var srcPos = 0
            var savedLit: UInt8 = 0
            var savedMatchDist = 0
            var savedMatchLen = 0
            let dict = self.dict
            let next = self.next
            let hash = self.hash

            while srcPos < inLen || lookaheadSize != 0 {
                let numBytesToProcess = min(inLen - srcPos, maxMatchLen - lookaheadSize)

                if lookaheadSize + size >= minMatchLen - 1 && numBytesToProcess > 0 {
                    // Enough bytes available: roll the hash over the new bytes.
                    var dstPos = (lookaheadPos + lookaheadSize) & dictMask
                    var insPos = lookaheadPos + lookaheadSize - 2
                    // `update_hash` seeded with the two bytes before the new data.
                    var h = ((UInt32(dict[insPos & dictMask]) << hashShift)
                        ^ UInt32(dict[(insPos + 1) & dictMask])) & hashMask
                    lookaheadSize += numBytesToProcess
                    for k in srcPos..<(srcPos + numBytesToProcess) {
                        let c = src[k]
                        dict[dstPos] = c
                        if dstPos < maxMatchLen - 1 {
                            dict[dictSize + dstPos] = c
                        }
                        h = ((h << hashShift) ^ UInt32(c)) & hashMask
                        next[insPos & dictMask] = hash[Int(h)]
                        hash[Int(h)] = UInt16(truncatingIfNeeded: insPos)
                        dstPos = (dstPos + 1) & dictMask
                        insPos += 1
                    }
                    srcPos += numBytesToProcess
                } else {
                    // Start of stream: insert byte by byte once three bytes exist.
                    for k in srcPos..<(srcPos + numBytesToProcess) {
                        let c = src[k]
                        let dstPos = (lookaheadPos + lookaheadSize) & dictMask
                        dict[dstPos] = c
                        if dstPos < maxMatchLen - 1 {
                            dict[dictSize + dstPos] = c
                        }
                        lookaheadSize += 1
                        if lookaheadSize + size >= minMatchLen {
                            let insPos = lookaheadPos + lookaheadSize - 3
                            let h = ((UInt32(dict[insPos & dictMask]) << (hashShift * 2))
                                ^ ((UInt32(dict[(insPos + 1) & dictMask]) << hashShift) ^ UInt32(c)))
                                & hashMask
                            next[insPos & dictMask] = hash[Int(h)]
                            hash[Int(h)] = UInt16(truncatingIfNeeded: insPos)
                        }
                    }
                    srcPos += numBytesToProcess
                }

                size = min(dictSize - lookaheadSize, size)

                var lenToMove = 1
                let curPos = lookaheadPos & dictMask
                let startLen = savedMatchLen != 0 ? savedMatchLen : minMatchLen - 1
                var (curMatchDist, curMatchLen) = findMatch(
                    lookaheadPos: lookaheadPos,
                    maxDist: size,
                    maxLength: lookaheadSize,
                    matchDist: 0,
                    matchLen: startLen
                )

                // Drop 3-byte matches that are far away (they rarely pay off), and
                // (a miniz quirk) any match whose distance equals the masked position.
                let farAndSmall = curMatchLen == minMatchLen && curMatchDist >= 8 * 1024
                if farAndSmall || curPos == curMatchDist {
                    curMatchDist = 0
                    curMatchLen = 0
                }

                if savedMatchLen != 0 {
                    if curMatchLen > savedMatchLen {
                        recordLiteral(savedLit)
                        if curMatchLen >= 128 {
                            recordMatch(length: curMatchLen, distance: curMatchDist)
                            savedMatchLen = 0
                            lenToMove = curMatchLen
                        } else {
                            savedLit = dict[curPos]
                            savedMatchDist = curMatchDist
                            savedMatchLen = curMatchLen
                        }
                    } else {
                        recordMatch(length: savedMatchLen, distance: savedMatchDist)
                        lenToMove = savedMatchLen - 1
                        savedMatchLen = 0
                    }
                } else if curMatchDist == 0 {
                    recordLiteral(dict[curPos])
                } else if curMatchLen >= 128 {
                    recordMatch(length: curMatchLen, distance: curMatchDist)
                    lenToMove = curMatchLen
                } else {
                    savedLit = dict[curPos]
                    savedMatchDist = curMatchDist
                    savedMatchLen = curMatchLen
                }

                lookaheadPos += lenToMove
                lookaheadSize -= min(lenToMove, lookaheadSize)
                size = min(size + lenToMove, dictSize)

                // Block boundary heuristics.
                let lzBufTight = codePosition > codeBufSize - 8
                let fat = ((codePosition * 115) >> 7) >= totalBytes
                let bufFat = totalBytes > 31 * 1024 && fat
                if lzBufTight || bufFat {
                    flushBlock(isFinal: false)
                }
            }
        }

        // MARK: Match finder (`DictOxide::find_match`)

        @inline(__always)
        private func readU16(_ pos: Int) -> UInt16 {
            UInt16(dict[pos]) | (UInt16(dict[pos + 1]) << 8)
        }

        @inline(__always)
        private func readU64(_ pos: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(dict + (pos & dictMask)).loadUnaligned(as: UInt64.self))
        }

        /// Port of `DictOxide::find_match`: walks the hash chain (in batches of
        /// three candidates per probe) looking for a match longer than `matchLen`.
        /// Returns the input values if nothing better was found.
        @inline(__always)
        private func findMatch(
            lookaheadPos: Int,
            maxDist: Int,
            maxLength requestedMax: Int,
            matchDist initialDist: Int,
            matchLen initialLen: Int
        ) -> (Int, Int) {
            let maxLen = min(maxMatchLen, requestedMax)
            var matchLen = max(initialLen, 1)
            var matchDist = initialDist
            if maxLen <= matchLen {
                return (matchDist, matchLen)
            }
            let next = self.next
            let pos = lookaheadPos & dictMask
            var probePos = pos
            var numProbesLeft = matchLen < 32 ? maxProbesShort : maxProbesLong
            // The last byte of the current best match and the one after it.
            var c01 = readU16(pos + matchLen - 1)
            // The first two bytes at the current position.
            let s01 = readU16(pos)

            outer: while true {
                var dist = 0
                found: while true {
                    numProbesLeft -= 1
                    if numProbesLeft == 0 {
                        return (matchDist, matchLen)
                    }
                    for _ in 0..<3 {
                        let nextProbePos = Int(next[probePos])
                        dist = (lookaheadPos &- nextProbePos) & 0xFFFF
                        if nextProbePos == 0 || dist > maxDist || matchLen - 1 >= maxMatchLen {
                            return (matchDist, matchLen)
                        }
                        probePos = nextProbePos & dictMask
                        if readU16(probePos + matchLen - 1) == c01 {
                            break found
                        }
                    }
                }

                if dist == 0 {
                    return (matchDist, matchLen)
                }
                if readU16(probePos) != s01 {
                    continue outer
                }

                var p = pos + 2
                var q = probePos + 2
                for _ in 0..<32 {
                    let xorData = readU64(p) ^ readU64(q)
                    if xorData == 0 {
                        p += 8
                        q += 8
                    } else {
                        let probeLen = p - pos + (xorData.trailingZeroBitCount >> 3)
                        if probeLen > matchLen {
                            matchDist = dist
                            matchLen = min(maxLen, probeLen)
                            if matchLen >= maxLen {
                                return (matchDist, matchLen)
                            }
                            c01 = readU16(pos + matchLen - 1)
                        }
                        continue outer
                    }
                }
                return (dist, min(maxLen, maxMatchLen))
            }
        }

        // MARK: Block output (`flush_block`, `compress_block`, `compress_lz_codes`)

        /// Port of `flush_block` for raw streams (no zlib header / adler32).
        mutating func flushBlock(isFinal: Bool) {
            // `LZOxide::init_flag`
            if numFlagsLeft == 8 {
                codes[flagPosition] = 0
                codePosition -= 1
            } else {
                codes[flagPosition] >>= UInt8(numFlagsLeft)
            }

            // Block header: BFINAL bit.
            putBits(isFinal ? 1 : 0, 1)

            let savedCount = out.count
            let savedBitBuffer = bitBuffer
            let savedBitsIn = bitsIn

            if totalBytes < 48 {
                startStaticBlock()
            } else {
                startDynamicBlock()
            }
            compressLZCodes()

            // Fall back to a stored block if compression expanded the data and the
            // block's bytes are still in the dictionary.
            let expanded = totalBytes > 32
                && out.count - savedCount + 1 >= totalBytes
                && lookaheadPos - codeBufDictPos <= size

            if expanded {
                out.removeSubrange(savedCount...)
                bitBuffer = savedBitBuffer
                bitsIn = savedBitsIn

                putBits(0, 2)
                padToBytes()
                putBits(UInt32(totalBytes & 0xFFFF), 16)
                putBits(UInt32(~totalBytes & 0xFFFF), 16)

                let start = codeBufDictPos & dictMask
                let end = (codeBufDictPos + totalBytes) & dictMask
                if start < end {
                    out.append(contentsOf: UnsafeBufferPointer(start: dict + start, count: end - start))
                } else if totalBytes > 0 {
                    out.append(contentsOf: UnsafeBufferPointer(start: dict + start, count: dictSize - start))
                    out.append(contentsOf: UnsafeBufferPointer(start: dict, count: end))
                }
            }

            if isFinal {
                padToBytes()
            }

            litCounts.update(repeating: 0, count: 288)
            distCounts.update(repeating: 0, count: 32)

            codePosition = 1
            flagPosition = 0
            numFlagsLeft = 8
            codeBufDictPos += totalBytes
            totalBytes = 0
        }

        /// Installs code lengths and codes for the current block.
        private func setTables(litLenSizes ls: [UInt8], litLenCodes lc: [UInt16],
                               distSizes dsz: [UInt8], distCodes dc: [UInt16]) {
            for i in 0..<288 {
                litLenSizes[i] = i < ls.count ? ls[i] : 0
                litLenCodes[i] = i < lc.count ? lc[i] : 0
            }
            for i in 0..<32 {
                distSizes[i] = i < dsz.count ? dsz[i] : 0
                distCodes[i] = i < dc.count ? dc[i] : 0
            }
        }

        /// `HuffmanOxide::start_static_block`: fixed codes, block type 01.
        mutating func startStaticBlock() {
            setTables(litLenSizes: StaticCodes.litLenSizes, litLenCodes: StaticCodes.litLenCodes,
                      distSizes: StaticCodes.distSizes, distCodes: StaticCodes.distCodes)
            putBits(0b01, 2)
        }

        /// `HuffmanOxide::start_dynamic_block`: builds the literal/length and
        /// distance codes, run-length encodes their code lengths and writes the
        /// dynamic block header.
        mutating func startDynamicBlock() {
            // There is always exactly one end-of-block code.
            litCounts[256] = 1

            let lit = HuffmanBuilder.optimizeTable(
                counts: Array(UnsafeBufferPointer(start: litCounts, count: 288)),
                tableLen: 288, codeSizeLimit: 15)
            let dist = HuffmanBuilder.optimizeTable(
                counts: Array(UnsafeBufferPointer(start: distCounts, count: 32)),
                tableLen: 32, codeSizeLimit: 15)

            var numLitCodes = 286
            while numLitCodes > 257 && lit.sizes[numLitCodes - 1] == 0 { numLitCodes -= 1 }
            var numDistCodes = 30
            while numDistCodes > 1 && dist.sizes[numDistCodes - 1] == 0 { numDistCodes -= 1 }

            var codeSizesToPack: [UInt8] = []
            codeSizesToPack.reserveCapacity(numLitCodes + numDistCodes)
            codeSizesToPack.append(contentsOf: lit.sizes[0..<numLitCodes])
            codeSizesToPack.append(contentsOf: dist.sizes[0..<numDistCodes])

            // `Rle` state and the run-length packing of the code sizes.
            var packed: [UInt8] = []
            packed.reserveCapacity(codeSizesToPack.count + 8)
            var huffCounts = [UInt16](repeating: 0, count: 19)
            var zCount: UInt32 = 0
            var repeatCount: UInt16 = 0
            var prevCodeSize: UInt8 = 0xFF

            func flushPrevCodeSize() {  // `Rle::prev_code_size`
                if repeatCount != 0 {
                    if repeatCount < 3 {
                        huffCounts[Int(prevCodeSize)] &+= repeatCount
                        for _ in 0..<Int(repeatCount) { packed.append(prevCodeSize) }
                    } else {
                        huffCounts[16] &+= 1
                        packed.append(16)
                        packed.append(UInt8(truncatingIfNeeded: repeatCount - 3))
                    }
                    repeatCount = 0
                }
            }
            func flushZeroCodeSize() {  // `Rle::zero_code_size`
                if zCount != 0 {
                    if zCount < 3 {
                        huffCounts[0] &+= UInt16(truncatingIfNeeded: zCount)
                        for _ in 0..<Int(zCount) { packed.append(0) }
                    } else if zCount <= 10 {
                        huffCounts[17] &+= 1
                        packed.append(17)
                        packed.append(UInt8(truncatingIfNeeded: zCount - 3))
                    } else {
                        huffCounts[18] &+= 1
                        packed.append(18)
                        packed.append(UInt8(truncatingIfNeeded: zCount - 11))
                    }
                    zCount = 0
                }
            }

            for codeSize in codeSizesToPack {
                if codeSize == 0 {
                    flushPrevCodeSize()
                    zCount += 1
                    if zCount == 138 {
                        flushZeroCodeSize()
                    }
                } else {
                    flushZeroCodeSize()
                    if codeSize != prevCodeSize {
                        flushPrevCodeSize()
                        huffCounts[Int(codeSize)] &+= 1
                        packed.append(codeSize)
                    } else {
                        repeatCount += 1
                        if repeatCount == 6 {
                            flushPrevCodeSize()
                        }
                    }
                }
                prevCodeSize = codeSize
            }
            if repeatCount != 0 {
                flushPrevCodeSize()
            } else {
                flushZeroCodeSize()
            }

            let huff = HuffmanBuilder.optimizeTable(counts: huffCounts, tableLen: 19, codeSizeLimit: 7)

            // Block type 10 and the table sizes.
            putBits(2, 2)
            putBits(UInt32(numLitCodes - 257), 5)
            putBits(UInt32(numDistCodes - 1), 5)

            var numBitLengths = 18
            while numBitLengths >= 0 && huff.sizes[huffmanLengthOrder[numBitLengths]] == 0 {
                numBitLengths -= 1
            }
            numBitLengths = max(4, numBitLengths + 1)
            putBits(UInt32(numBitLengths - 4), 4)
            for i in 0..<numBitLengths {
                putBits(UInt32(huff.sizes[huffmanLengthOrder[i]]), 3)
            }

            var index = 0
            while index < packed.count {
                let code = Int(packed[index])
                index += 1
                putBits(UInt32(huff.codes[code]), Int(huff.sizes[code]))
                if code >= 16 && index < packed.count {
                    let extraBits = code == 16 ? 2 : (code == 17 ? 3 : 7)
                    putBits(UInt32(packed[index]), extraBits)
                    index += 1
                }
            }

            setTables(litLenSizes: lit.sizes, litLenCodes: lit.codes,
                      distSizes: dist.sizes, distCodes: dist.codes)
        }

        /// Port of `compress_lz_codes`: replays the LZ code buffer through the
        /// Huffman tables (already stored in `litLenCodes`/`litLenSizes`/
        /// `distCodes`/`distSizes`) and appends the end-of-block symbol.
        ///
        /// Like miniz's `BitBuffer::flush`, it stores 8 bytes at a time into a
        /// scratch buffer and advances by the number of whole bytes produced.
        mutating func compressLZCodes() {
            let usedLen = min(codePosition, codeBufSize)
            let codes = self.codes
            let llc = litLenCodes, lls = litLenSizes, dc = distCodes, ds = distSizes
            let t = tables
            let scratch = UnsafeMutableRawPointer(blockScratch)
            var n = 0
            var bb = bitBuffer
            var nb = UInt64(bitsIn)

            var flags: UInt32 = 1
            var i = 0
            while i < usedLen {
                if flags == 1 {
                    flags = UInt32(codes[i]) | 0x100
                    i += 1
                }
                if flags & 1 == 1 {
                    flags >>= 1
                    if i + 2 >= codeBufSize { break }
                    let matchLen = Int(codes[i])
                    let matchDist = Int(codes[i + 1]) | (Int(codes[i + 2]) << 8)
                    i += 3

                    let lenSymbol = Int(t[Tables.lenSym + matchLen]) + 256
                    bb |= UInt64(llc[lenSymbol]) << nb
                    nb += UInt64(lls[lenSymbol])
                    let lenExtraBits = UInt64(t[Tables.lenExtra + matchLen])
                    bb |= (UInt64(matchLen) & ((1 << lenExtraBits) - 1)) << nb
                    nb += lenExtraBits

                    let sym: Int
                    let extraBits: UInt64
                    if matchDist < 512 {
                        sym = Int(t[Tables.smallDistSym + matchDist])
                        extraBits = UInt64(t[Tables.smallDistExtra + matchDist])
                    } else {
                        sym = Int(t[Tables.largeDistSym + (matchDist >> 8)])
                        extraBits = UInt64(t[Tables.largeDistExtra + (matchDist >> 8)])
                    }
                    bb |= UInt64(dc[sym]) << nb
                    nb += UInt64(ds[sym])
                    bb |= (UInt64(matchDist) & ((1 << extraBits) - 1)) << nb
                    nb += extraBits
                } else {
                    for _ in 0..<3 {
                        flags >>= 1
                        let lit = Int(codes[i])
                        i += 1
                        bb |= UInt64(llc[lit]) << nb
                        nb += UInt64(lls[lit])
                        if flags & 1 == 1 || i >= usedLen {
                            break
                        }
                    }
                }
                // `BitBuffer::flush`: at most 7 + 48 bits are pending here.
                scratch.storeBytes(of: bb.littleEndian, toByteOffset: n, as: UInt64.self)
                n += Int(nb >> 3)
                bb >>= nb & ~7
                nb &= 7
            }

            out.append(contentsOf: UnsafeBufferPointer(start: blockScratch, count: n))
            bitBuffer = bb
            bitsIn = Int(nb)

            // End of block symbol.
            putBits(UInt32(llc[256]), Int(lls[256]))
        }
    }
}
