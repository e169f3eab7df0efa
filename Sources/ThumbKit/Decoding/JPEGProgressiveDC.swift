/// The DC coefficients of a progressive JPEG, decoded from its DC scans alone (Ss = 0: the first
/// scans and their successive-approximation refinements), with every other scan skipped unread.
///
/// At DCT scale 1/8 a component whose IDCT is 1×1 needs nothing but its DC coefficients, and in
/// a typical file the DC scans are 3–13 % of the bytes; libjpeg instead decodes every scan into
/// a whole-image coefficient buffer (128 bytes per block) before it can output a row. Here each
/// block costs 2 bytes.
///
/// Follows libjpeg's progressive Huffman decoder (jdphuff.c) exactly for well-formed data, and
/// checks the progression the way libjpeg does (including the AC scans it skips). Anything
/// libjpeg would warn about or reject, and anything it would guess about (a bad Huffman code,
/// data running out, a wrong restart marker, leftover bytes), makes `decode` return nil, so the
/// caller can let libjpeg handle the file as usual.
struct JPEGProgressiveDC {
    /// Quantised DC coefficients of every component, as libjpeg stores them (JCOEF): component
    /// `c` starts at `offsets[c]` and is row-major over its MCU-padded block grid
    /// (`Frame.paddedBlocksWide(c)` × `paddedBlocksHigh(c)`).
    var coefficients: [Int16]
    var offsets: [Int]
    /// Each component's quantisation table (zigzag order) as libjpeg latches it: the table in
    /// its slot when the component's first scan starts.
    var quantTables: [[UInt16]]

    /// Decodes the DC scans of a progressive `layout`; nil on any doubt (see the type's notes).
    static func decode(_ layout: JPEGScanLayout) -> JPEGProgressiveDC? {
        let frame = layout.frame
        guard frame.marker == 0xC2 else { return nil }
        let count = frame.components.count
        var offsets: [Int] = []
        var total = 0
        for c in 0..<count {
            offsets.append(total)
            total += frame.paddedBlocksWide(c) * frame.paddedBlocksHigh(c)
        }
        var coefficients = [Int16](repeating: 0, count: total)
        var latched = [[UInt16]?](repeating: nil, count: count)
        // libjpeg's coef_bits: the Al each coefficient was last coded with, -1 before its first scan.
        var coefficientBits = [[Int]](repeating: [Int](repeating: -1, count: 64), count: count)
        var tables = JPEGTableState()
        for part in layout.parts {
            switch part {
            case .frame:
                continue
            case .segment(let marker, let range):
                // The payload follows the marker's two bytes and the two length bytes.
                guard range.count >= 4,
                      tables.apply(marker: marker, payload: layout.bytes[(range.lowerBound + 4)..<range.upperBound])
                else { return nil }
            case .scan(let scan):
                guard checkProgression(scan, frame: frame, bits: &coefficientBits) else { return nil }
                for c in scan.components where latched[c] == nil {
                    guard let q = tables.quant[frame.components[c].quantTable] else { return nil }
                    latched[c] = q
                }
                guard scan.ss == 0 else {
                    // AC scan, skipped; libjpeg would still build its table at the scan's start.
                    guard tables.ac[scan.acTables[0]] != nil else { return nil }
                    continue
                }
                var dcTables: [JPEGHuffmanTable] = []
                if scan.ah == 0 {
                    for slot in scan.dcTables {
                        guard let table = tables.dc[slot] else { return nil }
                        dcTables.append(table)
                    }
                }
                let geometry = ScanGeometry(components: scan.components, frame: frame, offsets: offsets)
                guard decodeScan(
                    scan, geometry: geometry, bytes: layout.bytes, tables: dcTables,
                    restartInterval: tables.restartInterval, into: &coefficients)
                else { return nil }
            }
        }
        // Every component must have had its DC coded.
        guard coefficientBits.allSatisfy({ $0[0] >= 0 }) else { return nil }
        return JPEGProgressiveDC(coefficients: coefficients, offsets: offsets, quantTables: latched.map { $0! })
    }

    /// Where each block of a scan's MCU goes: block `b` of MCU (mx, my) is coefficient
    /// `base[b] + my * rowStep[b] + mx * columnStep[b]`, coded with table `table[b]`.
    struct ScanGeometry {
        var base: [Int] = []
        var rowStep: [Int] = []
        var columnStep: [Int] = []
        /// Index of the block's component among the scan's components.
        var table: [Int] = []
        var mcusPerRow: Int
        var mcuRows: Int

        /// The geometry of a scan of `components` (indices into the frame's, in scan order).
        init(components: [Int], frame: JPEGScanLayout.Frame, offsets: [Int]) {
            let single = components.count == 1
            // One component: its blocks one by one, only those that hold image data (libjpeg's
            // non-interleaved order). Several: whole MCUs, padding blocks included.
            mcusPerRow = single ? frame.blocksWide(components[0]) : frame.mcusPerRow
            mcuRows = single ? frame.blocksHigh(components[0]) : frame.mcuRows
            for (k, c) in components.enumerated() {
                let h = single ? 1 : frame.components[c].h
                let v = single ? 1 : frame.components[c].v
                let stride = frame.paddedBlocksWide(c)
                for by in 0..<v {
                    for bx in 0..<h {
                        base.append(offsets[c] + by * stride + bx)
                        rowStep.append(v * stride)
                        columnStep.append(h)
                        table.append(k)
                    }
                }
            }
        }

        /// One past the largest coefficient index the scan writes.
        var extent: Int {
            base.indices.map { base[$0] + (mcuRows - 1) * rowStep[$0] + (mcusPerRow - 1) * columnStep[$0] + 1 }.max() ?? 0
        }
    }

    /// libjpeg's checks at the start of a progressive scan (jdphuff.c `start_pass_phuff_decoder`):
    /// invalid parameters are errors there, an inconsistent progression a warning; both are false here.
    private static func checkProgression(
        _ scan: JPEGScanLayout.Scan, frame: JPEGScanLayout.Frame, bits: inout [[Int]]
    ) -> Bool {
        if scan.ss == 0 {
            guard scan.se == 0 else { return false }
        } else {
            guard scan.se >= scan.ss, scan.se <= 63, scan.components.count == 1 else { return false }
        }
        if scan.ah != 0 { guard scan.al == scan.ah - 1 else { return false } }
        guard scan.al <= 13 else { return false }
        // An interleaved scan may hold at most 10 blocks per MCU.
        if scan.components.count > 1 {
            let blocks = scan.components.reduce(0) { $0 + frame.components[$1].h * frame.components[$1].v }
            guard blocks <= 10 else { return false }
        }
        for c in scan.components {
            if scan.ss > 0 && bits[c][0] < 0 { return false }  // AC before DC
            for k in scan.ss...scan.se {
                let expected = bits[c][k] < 0 ? 0 : bits[c][k]
                guard scan.ah == expected else { return false }
                bits[c][k] = scan.al
            }
        }
        return true
    }
}
