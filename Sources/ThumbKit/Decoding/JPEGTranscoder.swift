// SPDX-License-Identifier: Apache-2.0
/// Writes kept coefficients (`JPEGProgressiveCoefficients`) as a sequential JPEG: the original's
/// frame (size, components, sampling, the latched quantisation tables, its JFIF and Adobe
/// markers, so libjpeg picks the same colour space) and one interleaved scan in which every
/// block holds its kept coefficients, every other one zero.
///
/// libjpeg then decodes that stream at the DCT scale the coefficients were kept for through
/// exactly the code a full decode uses (the reduced IDCT reads only kept coefficients, then the
/// same upsampling and colour conversion), without a whole-image coefficient buffer: a
/// single-scan file is decoded one MCU row at a time.
enum JPEGTranscoder {
    /// The standard DC table (ITU T.81 table K.3): code counts for lengths 1...16; symbols 0...11.
    private static let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    /// The largest DC difference and AC magnitude categories an 8-bit file needs.
    private static let maxDCCategory = 11
    private static let maxACCategory = 10
    /// AC symbols: end-of-block (0x00), sixteen zeros (0xF0), then run << 4 | size for runs
    /// 0...15 and sizes 1...10. With AC, end-of-block gets a 2-bit code and the others 8 bits
    /// (within libjpeg's 8-bit lookahead, so it decodes them on its fast path); DC-only streams
    /// get a 1-bit end-of-block and nothing else.
    private static let acSymbols: [UInt8] =
        [0x00, 0xF0] + (0...15).flatMap { run in (1...10).map { UInt8(run << 4 | $0) } }

    /// The sequential JPEG, or nil when the frame cannot be one interleaved scan (more than 10
    /// blocks per MCU) or a value is out of an 8-bit file's range (only corrupt data does that).
    static func transcode(_ coefficients: JPEGProgressiveCoefficients, layout: JPEGScanLayout) -> [UInt8]? {
        // JFIF (APP0) and Adobe (APP14) decide the colour space; nothing else is needed.
        let markers = layout.parts.compactMap { part -> ArraySlice<UInt8>? in
            guard case .segment(let marker, let range) = part, marker == 0xE0 || marker == 0xEE else { return nil }
            return layout.bytes[range]
        }
        return transcode(coefficients, frame: layout.frame, markers: markers)
    }

    /// `transcode` from the parts: the frame, and the marker segments to copy (whole, from 0xFF).
    static func transcode(
        _ coefficients: JPEGProgressiveCoefficients, frame: JPEGScanLayout.Frame, markers: [ArraySlice<UInt8>]
    ) -> [UInt8]? {
        let components = frame.components
        if components.count > 1 {
            guard components.reduce(0, { $0 + $1.h * $1.v }) <= 10 else { return nil }
        }
        let withAC = coefficients.kept.contains { $0.count > 1 }
        var out: [UInt8] = []
        out.reserveCapacity(1024 + coefficients.coefficients.count * (withAC ? 2 : 1))
        out += [0xFF, 0xD8]
        for marker in markers { out += marker }
        for (c, table) in coefficients.quantTables.enumerated() {
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
        out += [
            8, UInt8(frame.height >> 8), UInt8(frame.height & 0xFF), UInt8(frame.width >> 8), UInt8(frame.width & 0xFF),
        ]
        out.append(UInt8(components.count))
        for (c, component) in components.enumerated() {
            out += [component.id, UInt8(component.h << 4 | component.v), UInt8(c)]
        }
        // DC table 0: the standard one. AC table 0: see `acSymbols`.
        let acCounts: [UInt8] =
            withAC
            ? [0, 1, 0, 0, 0, 0, 0, UInt8(acSymbols.count - 1), 0, 0, 0, 0, 0, 0, 0, 0]
            : [1] + [UInt8](repeating: 0, count: 15)
        let acValues = withAC ? acSymbols : [0x00]
        out += [0xFF, 0xC4]
        appendLength(2 + 17 + 12 + 17 + acValues.count, to: &out)
        out.append(0x00)
        out += dcCounts
        out += Array(0...11)
        out.append(0x10)
        out += acCounts
        out += acValues
        out += [0xFF, 0xDA]
        appendLength(6 + 2 * components.count, to: &out)
        out.append(UInt8(components.count))
        for component in components { out += [component.id, 0x00] }
        out += [0, 63, 0]
        let acCodes = canonicalCodes(counts: acCounts, symbols: acValues)
        guard encodeBlocks(coefficients, frame: frame, acCodes: acCodes, into: &out) else { return nil }
        out += [0xFF, 0xD9]
        return out
    }

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        out += [UInt8(length >> 8), UInt8(length & 0xFF)]
    }

    /// The canonical Huffman codes of a DHT table, indexed by symbol: (code, length); length 0
    /// for symbols the table lacks.
    private static func canonicalCodes(counts: [UInt8], symbols: [UInt8]) -> [(code: UInt32, length: Int)] {
        var codes = [(code: UInt32, length: Int)](repeating: (0, 0), count: 256)
        var code: UInt32 = 0
        var index = 0
        for (offset, count) in counts.enumerated() {
            for _ in 0..<Int(count) {
                codes[Int(symbols[index])] = (code, offset + 1)
                code += 1
                index += 1
            }
            code <<= 1
        }
        return codes
    }

    /// Canonical codes of the DC table, by category.
    private static let dcCodes = canonicalCodes(counts: dcCounts, symbols: Array(0...11))

    /// Entropy-codes every block in scan order; false when a value is out of range.
    private static func encodeBlocks(
        _ coefficients: JPEGProgressiveCoefficients, frame: JPEGScanLayout.Frame,
        acCodes: [(code: UInt32, length: Int)],
        into out: inout [UInt8]
    ) -> Bool {
        var writer = JPEGBitWriter(output: out)
        out = []
        let sizes = coefficients.kept.map(\.count)
        let g = JPEGProgressiveCoefficients.ScanGeometry(
            components: Array(frame.components.indices), frame: frame, offsets: coefficients.offsets, blockSizes: sizes)
        precondition(g.extent <= coefficients.coefficients.count, "Scan geometry outside the coefficients.")
        let codes = dcCodes
        let eob = acCodes[0x00]
        let zrl = acCodes[0xF0]
        // Kept positions of every component in one array, so the loop touches no nested arrays.
        let keptFlat = coefficients.kept.flatMap { $0 }
        let keptStart = coefficients.kept.indices.map { c in coefficients.kept[..<c].reduce(0) { $0 + $1.count } }
        var predictions = [Int](repeating: 0, count: frame.components.count)
        let fits = coefficients.coefficients.withUnsafeBufferPointer { values in
            keptFlat.withUnsafeBufferPointer { keptPositions in
                acCodes.withUnsafeBufferPointer { ac in
                    for my in 0..<g.mcuRows {
                        for mx in 0..<g.mcusPerRow {
                            for b in 0..<g.base.count {
                                let start = g.base[b] + my * g.rowStep[b] + mx * g.columnStep[b]
                                let c = g.table[b]
                                let value = Int(values[start])
                                let diff = value - predictions[c]
                                predictions[c] = value
                                let dcCategory = category(diff)
                                guard dcCategory <= maxDCCategory else { return false }
                                let symbol = codes[dcCategory]
                                writer.write(
                                    symbol.code << UInt32(dcCategory) | extraBits(diff, dcCategory),
                                    length: symbol.length + dcCategory)
                                // AC: runs of zeros (every position not kept is zero) between values.
                                var last = 0
                                let kept = keptStart[c]
                                for s in 1..<sizes[c] {
                                    let v = Int(values[start + s])
                                    if v == 0 { continue }
                                    let position = keptPositions[kept + s]
                                    var run = position - last - 1
                                    while run > 15 {
                                        writer.write(zrl.code, length: zrl.length)
                                        run -= 16
                                    }
                                    let size = category(v)
                                    guard size <= maxACCategory else { return false }
                                    let code = ac[run << 4 | size]
                                    writer.write(
                                        code.code << UInt32(size) | extraBits(v, size), length: code.length + size)
                                    last = position
                                }
                                if last < 63 { writer.write(eob.code, length: eob.length) }
                            }
                        }
                    }
                    return true
                }
            }
        }
        guard fits else { return false }
        out = writer.finish()
        return true
    }

    /// The magnitude category of a value: its bit length (0 for 0).
    @inline(__always)
    private static func category(_ v: Int) -> Int {
        let magnitude = v < 0 ? -v : v
        return magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount
    }

    /// A value's `size` low bits as JPEG codes them (negative values: one's complement).
    @inline(__always)
    private static func extraBits(_ v: Int, _ size: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: v < 0 ? v - 1 : v) & ((1 << UInt32(size)) - 1)
    }
}

/// Writes entropy-coded bits most significant first, stuffing a 0x00 after every 0xFF and
/// padding the last byte with one bits (ITU T.81 F.1.2.3, B.1.1.5).
///
/// Pointer code, fenced: bytes go into a buffer it owns, which grows (doubling) whenever fewer
/// than 16 bytes are free before a write, and one write adds at most 5 bytes (32 bits, each
/// byte possibly stuffed); `finish` copies them out and frees the buffer.
struct JPEGBitWriter: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var buffer: UInt64 = 0
    private var bitCount = 0

    /// A writer whose output starts with `output`.
    init(output: [UInt8]) {
        capacity = max(1024, output.count * 2)
        storage = .allocate(capacity: capacity)
        output.withUnsafeBufferPointer { storage.update(from: $0.baseAddress!, count: $0.count) }
        count = output.count
    }

    deinit { storage.deallocate() }

    /// Appends the low `length` bits of `bits` (length ≤ 32).
    @inline(__always)
    mutating func write(_ bits: UInt32, length: Int) {
        if capacity - count < 16 { grow() }
        buffer = buffer << UInt64(length) | UInt64(bits)
        bitCount += length
        while bitCount >= 8 {
            bitCount -= 8
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(bitCount))
            storage[count] = byte
            count += 1
            if byte == 0xFF {
                storage[count] = 0
                count += 1
            }
        }
    }

    private mutating func grow() {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        grown.update(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity *= 2
    }

    /// Pads to a whole byte with one bits and returns everything written.
    consuming func finish() -> [UInt8] {
        if bitCount > 0 { write((1 << UInt32(8 - bitCount)) - 1, length: 8 - bitCount) }
        return Array(UnsafeBufferPointer(start: storage, count: count))
    }
}
