// SPDX-License-Identifier: Apache-2.0
// The sequential (baseline) scan loop. Pointer code, fenced: the entry precondition checks that
// the last coefficient any block of the scan geometry can write (its start plus its kept count)
// lies inside `coefficients`, that every table offset lies inside its packed tables, and the bit
// reader checks its own reads.

extension JPEGProgressiveCoefficients {
    /// Decodes the coefficients `kept` asks for (zigzag positions per component, DC first) from
    /// a sequential Huffman-coded file (SOF0/SOF1) of one interleaved scan holding every
    /// component (or one component in a gray file), as jdhuff.c `decode_mcu` would: DC in full,
    /// the kept AC positions, every other AC symbol skipped unstored. Nil on any doubt: another
    /// frame type, several scans, a scan that is not Ss=0 Se=63 Ah=Al=0, a missing table, a bad
    /// code, data running out, a wrong restart marker, bytes (or a restart marker) left after the last MCU, a DC value
    /// outside 16 bits, a segment after the scan other than COM and APP1–APP15; and when the coefficients would take more than `maxBytes` or once
    /// `deadline` has passed (checked before each row of MCUs). With `threads` above 1 and restart
    /// markers, runs of whole restart intervals are decoded on that many threads
    /// (`JPEGRestartSegments`), with the same result.
    static func decodeSequential(
        _ layout: JPEGScanLayout, kept: [[Int]], deadline: Deadline = .never, maxBytes: Int = .max, threads: Int = 1
    ) -> JPEGProgressiveCoefficients? {
        let frame = layout.frame
        guard frame.marker == 0xC0 || frame.marker == 0xC1, kept.count == frame.components.count else { return nil }
        var tables = JPEGTableState()
        var decoded: JPEGProgressiveCoefficients?
        for part in layout.parts {
            switch part {
            case .frame:
                continue
            case .segment(let marker, let range):
                // libjpeg reads on to EOI after the scan, and a JFIF APP0 there whose major
                // version is not 1 makes it warn (before the scan, the header's warning count
                // covers that): after the scan only COM and APP1–APP15 may follow.
                guard decoded == nil || marker == 0xFE || (0xE1...0xEF).contains(marker) else { return nil }
                guard tables.apply(segment: marker, at: range, of: layout.bytes) else { return nil }
            case .scan(let scan):
                if deadline.hasPassed { return nil }
                guard decoded == nil, scan.components.count == frame.components.count, scan.ss == 0, scan.se == 63,
                    scan.ah == 0, scan.al == 0
                else { return nil }
                if scan.components.count > 1 {
                    guard scan.components.reduce(0, { $0 + frame.components[$1].h * frame.components[$1].v }) <= 10
                    else { return nil }
                }
                var offsets: [Int] = []
                var total = 0
                for c in frame.components.indices {
                    offsets.append(total)
                    let blocks = frame.paddedBlocksWide(c) * frame.paddedBlocksHigh(c)
                    let (values, o1) = blocks.multipliedReportingOverflow(by: kept[c].count)
                    let (sum, o2) = total.addingReportingOverflow(values)
                    guard !o1, !o2, sum <= maxBytes / 2 else { return nil }
                    total = sum
                }
                var quant: [[UInt16]] = []
                for component in frame.components {
                    guard let q = tables.quant[component.quantTable] else { return nil }
                    quant.append(q)
                }
                var dc: [JPEGHuffmanTable] = []
                var ac: [JPEGHuffmanTable] = []
                for k in scan.components.indices {
                    guard let d = tables.dc[scan.dcTables[k]], let a = tables.ac[scan.acTables[k]] else { return nil }
                    dc.append(d)
                    ac.append(a)
                }
                var coefficients = [Int16](repeating: 0, count: total)
                let geometry = ScanGeometry(
                    components: scan.components, frame: frame, offsets: offsets, blockSizes: kept.map(\.count))
                guard
                    decodeSequentialScan(
                        scan, geometry: geometry, kept: kept, bytes: layout.bytes, dc: dc, ac: ac,
                        restartInterval: tables.restartInterval, into: &coefficients, deadline: deadline,
                        threads: threads)
                else { return nil }
                decoded = JPEGProgressiveCoefficients(
                    kept: kept, coefficients: coefficients, offsets: offsets, quantTables: quant)
            }
        }
        return decoded
    }

    /// The MCU loop of `decodeSequential`: false on any irregularity (see there).
    private static func decodeSequentialScan(
        _ scan: JPEGScanLayout.Scan, geometry g: ScanGeometry, kept: [[Int]], bytes: [UInt8],
        dc: [JPEGHuffmanTable], ac: [JPEGHuffmanTable], restartInterval: Int, into coefficients: inout [Int16],
        deadline: Deadline, threads: Int
    ) -> Bool {
        // One past the last coefficient any block can write: its start plus its own kept count.
        var reach = 0
        for b in g.base.indices {
            let last: Int = g.base[b] + (g.mcuRows - 1) * g.rowStep[b] + (g.mcusPerRow - 1) * g.columnStep[b]
            let count: Int = kept[scan.components[g.table[b]]].count
            reach = max(reach, last + count)
        }
        precondition(reach <= coefficients.count, "Scan geometry outside the coefficients.")
        precondition(g.base.count <= 10 && scan.components.count <= 4, "At most 10 blocks and 4 components an MCU.")
        let tables = dc + ac
        let packed = tables.flatMap(\.packed)
        let packedStarts = tables.indices.map { k in tables[..<k].reduce(0) { $0 + $1.packed.count } }
        let skip = ac.flatMap(\.skipTable)
        // Per scan component: zigzag position → slot among its kept coefficients (-1: not kept).
        let slots: [Int8] = scan.components.flatMap { c in
            var slots = [Int8](repeating: -1, count: 64)
            for (s, k) in kept[c].enumerated() { slots[k] = Int8(s) }
            return slots
        }
        // Per block of the MCU: base, row step, column step, DC table, AC table, skip table,
        // slot table (-1: AC skipped), component slot.
        var lanes: [Int] = []
        let n = scan.components.count
        for b in g.base.indices {
            let k = g.table[b]
            let keepsAC = kept[scan.components[k]].count > 1
            lanes += [
                g.base[b], g.rowStep[b], g.columnStep[b], packedStarts[k], packedStarts[n + k],
                k << JPEGHuffmanTable.skipBits, keepsAC ? k * 64 : -1, k,
            ]
        }
        let mcuCount = g.mcuRows * g.mcusPerRow
        return bytes.withUnsafeBufferPointer { src in
            packed.withUnsafeBufferPointer { tbl in
                skip.withUnsafeBufferPointer { skp in
                    slots.withUnsafeBufferPointer { slt in
                        lanes.withUnsafeBufferPointer { lane in
                            coefficients.withUnsafeMutableBufferPointer { out in
                                let loop = MCULoop(
                                    source: src, table: tbl.baseAddress!, skip: skp.baseAddress!,
                                    slots: slt.baseAddress!, lanes: lane.baseAddress!, blocks: g.base.count,
                                    coefficients: out.baseAddress!, mcusPerRow: g.mcusPerRow,
                                    restartInterval: restartInterval, deadline: deadline)
                                guard threads > 1,
                                    let segments = JPEGRestartSegments(
                                        src, data: scan.data, interval: restartInterval, mcuCount: mcuCount,
                                        parts: threads)
                                else {
                                    return loop.decode(mcus: 0..<mcuCount, data: scan.data, endsScan: true)
                                }
                                return segments.decodeInParallel { segment in
                                    loop.decode(mcus: segment.mcus, data: segment.data, endsScan: segment.endsScan)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The MCU loop of a sequential scan over raw pointers (fenced by `decodeSequentialScan`'s
    /// preconditions), for any run of whole restart intervals, so that runs can be decoded on
    /// several threads: each writes only its own MCUs' blocks.
    struct MCULoop {
        let source: UnsafeBufferPointer<UInt8>
        let table: UnsafePointer<Int32>
        let skip: UnsafePointer<UInt32>
        let slots: UnsafePointer<Int8>
        /// Per block of the MCU, 8 values: base, row step, column step, DC table, AC table,
        /// skip table, slot table (-1: AC skipped), component slot.
        let lanes: UnsafePointer<Int>
        let blocks: Int
        let coefficients: UnsafeMutablePointer<Int16>
        let mcusPerRow: Int
        let restartInterval: Int
        let deadline: Deadline

        /// Decodes `mcus` (starting a restart interval, or the scan) from `data` (their entropy
        /// bytes, up to the marker after the last of them); then only padding may be left, and
        /// with `endsScan` no restart marker may follow. False on any irregularity.
        func decode(mcus: Range<Int>, data: Range<Int>, endsScan: Bool) -> Bool {
            var reader = JPEGBitReader(source, data: data)
            var restarts = JPEGRestartSchedule(
                interval: restartInterval, startingInterval: restartInterval > 0 ? mcus.lowerBound / restartInterval : 0
            )
            var predictions = (0, 0, 0, 0)
            var my = mcus.lowerBound / mcusPerRow
            var mx = mcus.lowerBound % mcusPerRow
            for m in mcus {
                if mx == mcusPerRow {
                    mx = 0
                    my += 1
                }
                if (mx == 0 || m == mcus.lowerBound), deadline.hasPassed { return false }
                switch restarts.beforeMCU(&reader) {
                case .within: break
                case .restarted: predictions = (0, 0, 0, 0)
                case .failed: return false
                }
                for b in 0..<blocks {
                    let l = lanes + b * 8
                    let index = l[0] &+ my &* l[1] &+ mx &* l[2]
                    guard let diff = reader.dcDifference(table: table + l[3]) else { return false }
                    let value: Int
                    switch l[7] {
                    case 0:
                        value = predictions.0 + diff
                        predictions.0 = value
                    case 1:
                        value = predictions.1 + diff
                        predictions.1 = value
                    case 2:
                        value = predictions.2 + diff
                        predictions.2 = value
                    default:
                        value = predictions.3 + diff
                        predictions.3 = value
                    }
                    guard let stored = Int16(exactly: value) else { return false }
                    coefficients[index] = stored
                    if l[6] < 0 {
                        guard reader.skipAC(skip: skip + l[5], table: table + l[4]) else { return false }
                    } else {
                        guard reader.keptAC(table: table + l[4], slots: slots + l[6], into: coefficients + index)
                        else { return false }
                    }
                }
                mx += 1
            }
            return endsScan ? reader.atEndOfScan() : reader.atEndOfData()
        }
    }
}
