/// Writes DC coefficients as a small sequential JPEG: the original's frame (size, components,
/// sampling, the latched quantisation tables, its JFIF and Adobe markers, so libjpeg picks the
/// same colour space) and one interleaved scan in which every block is its DC value followed by
/// an end-of-block.
///
/// libjpeg then decodes that stream at DCT scale 1/8 through exactly the code a full decode
/// uses (the 1×1 IDCT reads only the DC coefficient, then the same upsampling and colour
/// conversion), without a whole-image coefficient buffer: a single-scan file is decoded one
/// MCU row at a time.
enum JPEGDCTranscoder {
    /// The standard DC table (ITU T.81 table K.3): code counts for lengths 1...16; symbols 0...11.
    private static let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    /// The largest DC difference category the table codes (an 8-bit file never needs more).
    private static let maxCategory = 11

    /// The sequential JPEG, or nil when the frame cannot be one interleaved scan (more than 10
    /// blocks per MCU) or a DC difference needs more than 11 bits (only corrupt data does).
    static func transcode(_ dc: JPEGProgressiveDC, layout: JPEGScanLayout) -> [UInt8]? {
        // JFIF (APP0) and Adobe (APP14) decide the colour space; nothing else is needed.
        let markers = layout.parts.compactMap { part -> ArraySlice<UInt8>? in
            guard case .segment(let marker, let range) = part, marker == 0xE0 || marker == 0xEE else { return nil }
            return layout.bytes[range]
        }
        return transcode(dc, frame: layout.frame, markers: markers)
    }

    /// `transcode` from the parts: the frame, and the marker segments to copy (whole, from 0xFF).
    static func transcode(_ dc: JPEGProgressiveDC, frame: JPEGScanLayout.Frame, markers: [ArraySlice<UInt8>]) -> [UInt8]? {
        let components = frame.components
        let interleaved = components.count > 1
        if interleaved {
            guard components.reduce(0, { $0 + $1.h * $1.v }) <= 10 else { return nil }
        }
        let blocks = dc.coefficients.count
        var out: [UInt8] = []
        out.reserveCapacity(1024 + blocks)
        out += [0xFF, 0xD8]
        for marker in markers { out += marker }
        for (c, table) in dc.quantTables.enumerated() {
            let wide = table.contains { $0 > 255 }
            out += [0xFF, 0xDB]
            appendLength(2 + 1 + (wide ? 128 : 64), to: &out)
            out.append(UInt8((wide ? 0x10 : 0) | c))
            for value in table {
                if wide { out.append(UInt8(value >> 8)) }
                out.append(UInt8(value & 0xFF))
            }
        }
        out += [0xFF, 0xC1]  // extended sequential, Huffman: allows 16-bit quantisation tables
        appendLength(8 + 3 * components.count, to: &out)
        out += [8, UInt8(frame.height >> 8), UInt8(frame.height & 0xFF), UInt8(frame.width >> 8), UInt8(frame.width & 0xFF)]
        out.append(UInt8(components.count))
        for (c, component) in components.enumerated() {
            out += [component.id, UInt8(component.h << 4 | component.v), UInt8(c)]
        }
        // DC table 0: the standard one. AC table 0: a single one-bit code, end-of-block.
        out += [0xFF, 0xC4]
        appendLength(2 + 17 + 12 + 17 + 1, to: &out)
        out.append(0x00)
        out += dcCounts
        out += Array(0...11)
        out.append(0x10)
        out += [1] + [UInt8](repeating: 0, count: 15)
        out.append(0x00)
        out += [0xFF, 0xDA]
        appendLength(6 + 2 * components.count, to: &out)
        out.append(UInt8(components.count))
        for component in components { out += [component.id, 0x00] }
        out += [0, 63, 0]
        guard encodeBlocks(dc, frame: frame, into: &out) else { return nil }
        out += [0xFF, 0xD9]
        return out
    }

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        out += [UInt8(length >> 8), UInt8(length & 0xFF)]
    }

    /// Canonical codes of the DC table, by category: (code, length).
    private static let dcCodes: [(code: UInt32, length: Int)] = {
        var codes: [(UInt32, Int)] = []
        var code: UInt32 = 0
        for (offset, count) in dcCounts.enumerated() {
            for _ in 0..<Int(count) {
                codes.append((code, offset + 1))
                code += 1
            }
            code <<= 1
        }
        return codes
    }()

    /// Entropy-codes every block in scan order; false when a difference is out of range.
    private static func encodeBlocks(_ dc: JPEGProgressiveDC, frame: JPEGScanLayout.Frame, into out: inout [UInt8]) -> Bool {
        var writer = JPEGBitWriter(output: out)
        out = []
        let g = JPEGProgressiveDC.ScanGeometry(
            components: Array(frame.components.indices), frame: frame, offsets: dc.offsets)
        precondition(g.extent <= dc.coefficients.count, "Scan geometry outside the coefficient planes.")
        let codes = dcCodes
        var predictions = [Int](repeating: 0, count: frame.components.count)
        for my in 0..<g.mcuRows {
            for mx in 0..<g.mcusPerRow {
                for b in 0..<g.base.count {
                    let value = Int(dc.coefficients[g.base[b] + my * g.rowStep[b] + mx * g.columnStep[b]])
                    let c = g.table[b]
                    let diff = value - predictions[c]
                    predictions[c] = value
                    let magnitude = diff < 0 ? -diff : diff
                    let category = magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount
                    guard category <= maxCategory else { return false }
                    // Code, the difference's low bits (negative: one's complement), then end-of-block
                    // ("0"): at most 9 + 11 + 1 bits in one write.
                    let extra = UInt32(truncatingIfNeeded: diff < 0 ? diff - 1 : diff) & ((1 << UInt32(category)) - 1)
                    let symbol = codes[category]
                    writer.write((symbol.code << UInt32(category) | extra) << 1, length: symbol.length + category + 1)
                }
            }
        }
        out = writer.finish()
        return true
    }
}

/// Writes entropy-coded bits most significant first, stuffing a 0x00 after every 0xFF and
/// padding the last byte with one bits (ITU T.81 F.1.2.3, B.1.1.5).
struct JPEGBitWriter {
    private var output: [UInt8]
    private var buffer: UInt64 = 0
    private var bitCount = 0

    init(output: [UInt8]) {
        self.output = output
    }

    /// Appends the low `length` bits of `bits` (length ≤ 32).
    @inline(__always)
    mutating func write(_ bits: UInt32, length: Int) {
        buffer = buffer << UInt64(length) | UInt64(bits)
        bitCount += length
        while bitCount >= 8 {
            bitCount -= 8
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(bitCount))
            output.append(byte)
            if byte == 0xFF { output.append(0) }
        }
    }

    /// Pads to a whole byte with one bits and returns everything written.
    mutating func finish() -> [UInt8] {
        if bitCount > 0 { write((1 << UInt32(8 - bitCount)) - 1, length: 8 - bitCount) }
        return output
    }
}
