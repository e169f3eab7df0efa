// SPDX-License-Identifier: Apache-2.0
/// The quantised coefficients of a progressive JPEG that a scaled IDCT reads, and no others:
/// decoded from the file's scans with libjpeg's arithmetic, 2 bytes per kept coefficient (plus
/// 8 bytes a block of "nonzero" flags when AC coefficients are kept), where libjpeg keeps all
/// 64 of every block in a 128-byte-per-block buffer.
///
/// At DCT scale 1/8 a 1×1 IDCT reads only the DC coefficient: the DC scans (3–13 % of a typical
/// file) are decoded and every AC scan is skipped unread. At 2/8 and 3/8 the reduced IDCTs read
/// 25 and 9 coefficients a block (`keptPositions`): every scan is decoded, but only those are
/// stored, which cuts libjpeg's buffer (100 MB for a 4096² 4:4:4 photo) about five-fold.
///
/// Follows libjpeg's progressive Huffman decoder (jdphuff.c) exactly for well-formed data, and
/// checks the progression the way libjpeg does (including scans it skips). Anything libjpeg
/// would warn about or reject, and anything it would guess about (a bad Huffman code, data
/// running out, a wrong restart marker, leftover bytes, a run past the band), makes `decode`
/// return nil, so the caller can let libjpeg handle the file as usual.
struct JPEGProgressiveCoefficients {
    /// The zigzag positions kept for each component, ascending; always starting with 0 (DC).
    var kept: [[Int]]
    /// Component `c`, block `b` (row-major over its MCU-padded grid, `Frame.paddedBlocksWide(c)`
    /// × `paddedBlocksHigh(c)`), kept position number `s`: `coefficients[offsets[c] + b *
    /// kept[c].count + s]`, as libjpeg stores it (JCOEF).
    var coefficients: [Int16]
    var offsets: [Int]
    /// Each component's quantisation table (zigzag order) as libjpeg latches it: the table in
    /// its slot when the component's first scan starts.
    var quantTables: [[UInt16]]

    /// DC only, for every component.
    init(dcCoefficients: [Int16], offsets: [Int], quantTables: [[UInt16]]) {
        self.init(
            kept: Array(repeating: [0], count: offsets.count), coefficients: dcCoefficients, offsets: offsets,
            quantTables: quantTables)
    }

    init(kept: [[Int]], coefficients: [Int16], offsets: [Int], quantTables: [[UInt16]]) {
        self.kept = kept
        self.coefficients = coefficients
        self.offsets = offsets
        self.quantTables = quantTables
    }

    /// libjpeg's zigzag → natural order (jpeg_natural_order): position k of a scan is row
    /// `naturalOrder[k] / 8`, column `naturalOrder[k] % 8` of the block.
    static let naturalOrder: [Int] = {
        var order: [Int] = []
        for sum in 0...14 {
            let rows = max(0, sum - 7)...min(sum, 7)
            // Odd anti-diagonals run down-left, even ones up-right.
            for row in (sum % 2 == 1 ? Array(rows) : rows.reversed()) { order.append(row * 8 + sum - row) }
        }
        return order
    }()

    /// The zigzag positions libjpeg's IDCT of `size`×`size` output reads (jidctred.c for 1, 2
    /// and 4, jidctint.c for the others): the first `size` rows and columns, except that the
    /// 2×2 one reads rows and columns 0, 1, 3, 5, 7 and the 4×4 one all but 4.
    static func keptPositions(idctSize size: Int) -> [Int] {
        let lines: Set<Int>
        switch size {
        case 2: lines = [0, 1, 3, 5, 7]
        case 4: lines = [0, 1, 2, 3, 5, 6, 7]
        default: lines = Set(0..<min(max(size, 1), 8))
        }
        return (0..<64).filter { lines.contains(naturalOrder[$0] / 8) && lines.contains(naturalOrder[$0] % 8) }
    }

    /// Decodes what `kept` asks for from a progressive `layout` (DC only when nil); nil on any
    /// doubt (see the type's notes), and when the scans it would walk take more than
    /// `TK_JPEG_MAX_SCAN_PASSES` passes over the blocks. With AC kept, the file must also be complete (every
    /// coefficient of every component fully refined), so that libjpeg's block smoothing,
    /// which the whole-file decode applies, would not change it. Also nil, before anything is
    /// allocated, when the coefficients and flags would take more than `maxBytes`, and as soon
    /// as `deadline` has passed (checked before each scan and each row of blocks in it).
    static func decode(
        _ layout: JPEGScanLayout, kept: [[Int]]? = nil, deadline: Deadline = .never, maxBytes: Int = .max
    ) -> JPEGProgressiveCoefficients? {
        let frame = layout.frame
        guard frame.marker == 0xC2 else { return nil }
        let count = frame.components.count
        let kept = kept ?? Array(repeating: [0], count: count)
        precondition(kept.count == count && kept.allSatisfy { $0.first == 0 }, "Every component keeps its DC.")
        let decodesAC = kept.contains { $0.count > 1 }
        // The scans walked here (AC scans are skipped unread when only DC is kept) may cost no
        // more passes than libjpeg allows itself: past that, libjpeg refuses the file.
        guard
            layout.blockPasses(walking: { decodesAC || $0.ss == 0 })
                <= Double(ImageDecoders.JPEG.maxScanPasses)
        else { return nil }
        var offsets: [Int] = []
        var total = 0
        var bytes = 0
        for c in 0..<count {
            offsets.append(total)
            // 2 bytes a kept coefficient, and 8 bytes of nonzero flags a block when AC is kept.
            let blocks = frame.paddedBlocksWide(c) * frame.paddedBlocksHigh(c)
            let (values, o1) = blocks.multipliedReportingOverflow(by: kept[c].count)
            let (perBlock, o2) = (2 * kept[c].count + (decodesAC ? 8 : 0)).multipliedReportingOverflow(by: blocks)
            let (sum, o3) = bytes.addingReportingOverflow(perBlock)
            guard !o1, !o2, !o3, sum <= maxBytes else { return nil }
            total += values
            bytes = sum
        }
        var coefficients = [Int16](repeating: 0, count: total)
        var state = ACState(frame: frame, kept: kept, decodesAC: decodesAC)
        var latched = [[UInt16]?](repeating: nil, count: count)
        // libjpeg's coef_bits: the Al each coefficient was last coded with, -1 before its first scan.
        var coefficientBits = [[Int]](repeating: [Int](repeating: -1, count: 64), count: count)
        var tables = JPEGTableState()
        for part in layout.parts {
            switch part {
            case .frame:
                continue
            case .segment(let marker, let range):
                guard tables.apply(segment: marker, at: range, of: layout.bytes) else { return nil }
            case .scan(let scan):
                if deadline.hasPassed { return nil }
                guard checkProgression(scan, frame: frame, bits: &coefficientBits) else { return nil }
                for c in scan.components where latched[c] == nil {
                    guard let q = tables.quant[frame.components[c].quantTable] else { return nil }
                    latched[c] = q
                }
                if scan.ss > 0 {
                    // libjpeg builds the AC table at the scan's start even when it is unused.
                    guard let table = tables.ac[scan.acTables[0]] else { return nil }
                    guard decodesAC else { continue }  // DC only: skipped unread
                    guard
                        decodeACScan(
                            scan, frame: frame, table: table, bytes: layout.bytes,
                            restartInterval: tables.restartInterval,
                            state: &state, into: &coefficients, offsets: offsets, deadline: deadline)
                    else { return nil }
                    continue
                }
                var dcTables: [JPEGHuffmanTable] = []
                if scan.ah == 0 {
                    for slot in scan.dcTables {
                        guard let table = tables.dc[slot] else { return nil }
                        dcTables.append(table)
                    }
                }
                let geometry = ScanGeometry(
                    components: scan.components, frame: frame, offsets: offsets, blockSizes: kept.map(\.count))
                guard
                    decodeScan(
                        scan, geometry: geometry, bytes: layout.bytes, tables: dcTables,
                        restartInterval: tables.restartInterval, into: &coefficients, deadline: deadline)
                else { return nil }
            }
        }
        // Every component must have had its DC coded; with AC, every coefficient fully refined.
        guard coefficientBits.allSatisfy({ $0[0] >= 0 }) else { return nil }
        if decodesAC { guard coefficientBits.allSatisfy({ $0.allSatisfy { $0 == 0 } }) else { return nil } }
        return JPEGProgressiveCoefficients(
            kept: kept, coefficients: coefficients, offsets: offsets, quantTables: latched.map { $0! })
    }

    /// Where each block of a scan's MCU goes: block `b` of MCU (mx, my) starts at coefficient
    /// `base[b] + my * rowStep[b] + mx * columnStep[b]`, coded with table `table[b]`.
    struct ScanGeometry {
        var base: [Int] = []
        var rowStep: [Int] = []
        var columnStep: [Int] = []
        /// Index of the block's component among the scan's components.
        var table: [Int] = []
        var mcusPerRow: Int
        var mcuRows: Int

        /// The geometry of a scan of `components` (indices into the frame's, in scan order),
        /// whose blocks hold `blockSizes[c]` coefficients each.
        init(components: [Int], frame: JPEGScanLayout.Frame, offsets: [Int], blockSizes: [Int]) {
            let single = components.count == 1
            // One component: its blocks one by one, only those that hold image data (libjpeg's
            // non-interleaved order). Several: whole MCUs, padding blocks included.
            mcusPerRow = single ? frame.blocksWide(components[0]) : frame.mcusPerRow
            mcuRows = single ? frame.blocksHigh(components[0]) : frame.mcuRows
            for (k, c) in components.enumerated() {
                let h = single ? 1 : frame.components[c].h
                let v = single ? 1 : frame.components[c].v
                let stride = frame.paddedBlocksWide(c) * blockSizes[c]
                for by in 0..<v {
                    for bx in 0..<h {
                        base.append(offsets[c] + by * stride + bx * blockSizes[c])
                        rowStep.append(v * stride)
                        columnStep.append(h * blockSizes[c])
                        table.append(k)
                    }
                }
            }
        }

        /// One past the largest block start the scan uses.
        var extent: Int {
            base.indices.map { base[$0] + (mcuRows - 1) * rowStep[$0] + (mcusPerRow - 1) * columnStep[$0] + 1 }.max()
                ?? 0
        }
    }

    /// What AC decoding tracks beyond the kept coefficients: for every block, which of its 64
    /// positions are nonzero (a refinement scan reads a correction bit for each, kept or not),
    /// and for each component, the slot of each zigzag position (-1 when not kept).
    struct ACState {
        var nonzero: [UInt64]
        var nonzeroOffsets: [Int]
        var slots: [[Int8]]
        var blockSizes: [Int]

        init(frame: JPEGScanLayout.Frame, kept: [[Int]], decodesAC: Bool) {
            var offsets: [Int] = []
            var total = 0
            for c in frame.components.indices {
                offsets.append(total)
                total += decodesAC ? frame.paddedBlocksWide(c) * frame.paddedBlocksHigh(c) : 0
            }
            nonzero = [UInt64](repeating: 0, count: total)
            nonzeroOffsets = offsets
            slots = kept.map { positions in
                var slots = [Int8](repeating: -1, count: 64)
                for (s, k) in positions.enumerated() { slots[k] = Int8(s) }
                return slots
            }
            blockSizes = kept.map(\.count)
        }
    }

    /// libjpeg's checks at the start of a progressive scan (jdphuff.c `start_pass_phuff_decoder`):
    /// invalid parameters are errors there, an inconsistent progression a warning; both are false here.
    static func checkProgression(
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
