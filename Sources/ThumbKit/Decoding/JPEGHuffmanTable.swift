// SPDX-License-Identifier: Apache-2.0
/// A JPEG Huffman table (ITU T.81 annex C) ready for decoding: a 9-bit lookahead table for
/// short codes and per-length code bounds (annex F.2.2.3) for the rest.
///
/// Built with the same checks libjpeg applies (`jpeg_make_d_derived_tbl`): at most 256
/// symbols, no all-ones code and no code overflowing its length, DC symbols no larger than 15.
struct JPEGHuffmanTable {
    /// Bits of lookahead.
    static let lookaheadBits = 9
    /// Where each part of `packed` starts.
    static let maxCodeStart = 1 << lookaheadBits
    static let valueOffsetStart = maxCodeStart + 18
    static let symbolsStart = valueOffsetStart + 18

    /// Everything decoding needs, in one array so a scan can hand all its tables to the bit
    /// reader as one buffer:
    /// - `[0, 512)`: for each 9-bit prefix, `length << 8 | symbol`, or 0 when the code is longer;
    /// - `[512, 530)`: the largest code of each length 0...17 (-1 when none; 17 is a sentinel);
    /// - `[530, 548)`: for each length, the index of its first symbol minus its first code;
    /// - `[548, …)`: the symbols.
    let packed: [Int32]

    /// Builds a table from DHT's 16 code counts and its symbols; nil when libjpeg would refuse it.
    init?(counts: ArraySlice<UInt8>, symbols: ArraySlice<UInt8>, isDC: Bool) {
        precondition(counts.count == 16, "A Huffman table has 16 code counts.")
        let total = counts.reduce(0) { $0 + Int($1) }
        guard total <= 256, total == symbols.count else { return nil }
        if isDC, symbols.contains(where: { $0 > 15 }) { return nil }
        var packed = [Int32](repeating: 0, count: Self.symbolsStart + total)
        for length in 0..<18 { packed[Self.maxCodeStart + length] = -1 }
        var code: Int32 = 0
        var index: Int32 = 0
        for (offset, count) in counts.enumerated() {
            let length = offset + 1
            if count > 0 {
                packed[Self.valueOffsetStart + length] = index - code
                for _ in 0..<Int(count) {
                    // Checked before the code is used: too many codes of one length would
                    // otherwise fill lookahead entries past the table's 512 (found by fuzzing).
                    guard code < Int32(1) << length else { return nil }
                    let symbol = Int32(symbols[symbols.startIndex + Int(index)])
                    packed[Self.symbolsStart + Int(index)] = symbol
                    if length <= Self.lookaheadBits {
                        // Every 9-bit prefix that starts with this code maps to it.
                        let shift = Self.lookaheadBits - length
                        let first = Int(code) << shift
                        for p in first..<(first + (1 << shift)) { packed[p] = Int32(length) << 8 | symbol }
                    }
                    code += 1
                    index += 1
                }
                packed[Self.maxCodeStart + length] = code - 1
            }
            // The next code must still fit in `length` bits: no code may be all ones.
            guard code < Int32(1) << length else { return nil }
            code <<= 1
        }
        packed[Self.maxCodeStart + 17] = Int32.max  // ends the search for longer codes
        self.packed = packed
    }
}

extension JPEGHuffmanTable {
    /// Bits of lookahead of `skipTable`.
    static let skipBits = 12

    /// For an AC table of a sequential scan whose coefficients are not kept: for each 12-bit
    /// window, up to three whole symbols that start there, with their magnitude bits (a later
    /// symbol counts only when its whole code lies inside the window; its magnitude bits may
    /// run past it, as the first symbol's may). 0 when the first code is longer than 12 bits
    /// (the caller then decodes it from `packed`). An entry (see `SkipEntry`) holds the bits
    /// all its symbols take, how far they move the zigzag position (run + 1, 16 for sixteen
    /// zeros), whether the last is end-of-block, how far all but the last move it (the caller
    /// takes the entry whole only when every symbol but the last starts inside the block), and
    /// the first symbol's own bits and advance (what it takes otherwise).
    var skipTable: [UInt32] {
        let width = Self.skipBits
        let mask = (1 << width) - 1
        let single = packed.withUnsafeBufferPointer { table in
            (0..<(1 << width)).map { Self.leadingSymbol($0, width: width, table: table.baseAddress!) }
        }
        return (0..<(1 << width)).map { window in
            guard let first = single[window] else { return 0 }
            var bits = first.length + first.size
            var advance = first.advance
            var beforeLast = 0
            var endsBlock = first.endsBlock
            var symbols = 1
            while symbols < 3, !endsBlock, bits < width {
                guard let next = single[(window << bits) & mask], next.length <= width - bits else { break }
                beforeLast = advance
                bits += next.length + next.size
                advance += next.advance
                endsBlock = next.endsBlock
                symbols += 1
            }
            return SkipEntry.pack(
                bits: bits, advance: advance, beforeLast: beforeLast, endsBlock: endsBlock,
                firstBits: first.length + first.size, firstAdvance: first.advance)
        }
    }

    /// The AC symbol whose code starts `window` (`width` bits, the code no longer than that) in
    /// the packed table at `table`: its code length, magnitude bits, advance of the zigzag
    /// position and whether it ends the block; nil when the code is longer or not in the table.
    /// Found as the scan loops find it (`JPEGBitReader.decode`).
    private static func leadingSymbol(_ window: Int, width: Int, table: UnsafePointer<Int32>)
        -> (length: Int, size: Int, advance: Int, endsBlock: Bool)?
    {
        let entry = JPEGBitReader.decode(UInt64(window) << UInt64(64 - width), table)
        let length = entry >> 8
        guard length > 0, length <= width else { return nil }
        let symbol = entry & 0xFF
        let size = symbol & 15
        let endsBlock = size == 0 && symbol != 0xF0
        return (length, size, size != 0 ? (symbol >> 4) + 1 : endsBlock ? 0 : 16, endsBlock)
    }
}

/// The fields of a `JPEGHuffmanTable.skipTable` entry, packed in 32 bits.
enum SkipEntry {
    @inline(__always) static func bits(_ e: UInt32) -> Int { Int(e & 63) }
    @inline(__always) static func endsBlock(_ e: UInt32) -> Bool { e & 64 != 0 }
    @inline(__always) static func advance(_ e: UInt32) -> Int { Int((e >> 7) & 127) }
    @inline(__always) static func beforeLast(_ e: UInt32) -> Int { Int((e >> 14) & 127) }
    @inline(__always) static func firstBits(_ e: UInt32) -> Int { Int((e >> 21) & 63) }
    @inline(__always) static func firstAdvance(_ e: UInt32) -> Int { Int(e >> 27) }

    static func pack(bits: Int, advance: Int, beforeLast: Int, endsBlock: Bool, firstBits: Int, firstAdvance: Int)
        -> UInt32
    {
        precondition(bits < 64 && advance < 128 && beforeLast < 128 && firstBits < 64 && firstAdvance < 32)
        return UInt32(bits) | (endsBlock ? 64 : 0) | UInt32(advance) << 7 | UInt32(beforeLast) << 14
            | UInt32(firstBits) << 21 | UInt32(firstAdvance) << 27
    }
}

/// The table state a decoder tracks while walking a JPEG's segments in order: DHT, DQT and DRI
/// may each appear before any scan and redefine what later scans use.
struct JPEGTableState {
    var dc: [JPEGHuffmanTable?] = [nil, nil, nil, nil]
    var ac: [JPEGHuffmanTable?] = [nil, nil, nil, nil]
    /// Quantisation tables as stored (zigzag order), 64 values each.
    var quant: [[UInt16]?] = [nil, nil, nil, nil]
    /// MCUs between restart markers; 0 for none.
    var restartInterval = 0

    /// Applies one segment's payload; false when libjpeg would reject it.
    /// `apply(marker:payload:)` for the segment at `range` of `bytes` (its marker's two bytes and
    /// two length bytes, then the payload); false for a segment too short to have a length.
    mutating func apply(segment marker: UInt8, at range: Range<Int>, of bytes: [UInt8]) -> Bool {
        range.count >= 4 && apply(marker: marker, payload: bytes[(range.lowerBound + 4)..<range.upperBound])
    }

    mutating func apply(marker: UInt8, payload p: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xC4: return applyDHT(Array(p))
        case 0xDB: return applyDQT(Array(p))
        case 0xDD:
            guard p.count == 2 else { return false }
            restartInterval = Int(p[p.startIndex]) << 8 | Int(p[p.startIndex + 1])
            return true
        default:
            return true  // APPn and COM do not change decoding
        }
    }

    private mutating func applyDHT(_ b: [UInt8]) -> Bool {
        var i = 0
        while i < b.count {
            guard i + 17 <= b.count else { return false }
            let tc = b[i] >> 4
            let th = Int(b[i] & 15)
            guard tc <= 1, th <= 3 else { return false }
            let counts = b[(i + 1)..<(i + 17)]
            let total = counts.reduce(0) { $0 + Int($1) }
            guard total <= 256, i + 17 + total <= b.count else { return false }
            let symbols = b[(i + 17)..<(i + 17 + total)]
            guard let table = JPEGHuffmanTable(counts: counts, symbols: symbols, isDC: tc == 0) else { return false }
            if tc == 0 { dc[th] = table } else { ac[th] = table }
            i += 17 + total
        }
        return true
    }

    private mutating func applyDQT(_ b: [UInt8]) -> Bool {
        var i = 0
        while i < b.count {
            let pq = b[i] >> 4
            let tq = Int(b[i] & 15)
            guard pq <= 1, tq <= 3 else { return false }
            let size = pq == 0 ? 64 : 128
            guard i + 1 + size <= b.count else { return false }
            var values = [UInt16](repeating: 0, count: 64)
            for k in 0..<64 {
                values[k] = pq == 0 ? UInt16(b[i + 1 + k]) : UInt16(b[i + 1 + 2 * k]) << 8 | UInt16(b[i + 2 + 2 * k])
            }
            quant[tq] = values
            i += 1 + size
        }
        return true
    }
}
