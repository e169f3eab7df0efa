// SPDX-License-Identifier: Apache-2.0
// The DC scan loops. Pointer code, fenced: the entry precondition checks that the largest
// block start the scan geometry can produce lies inside `coefficients` (so the wrapping
// index arithmetic below cannot leave it) and that every table offset lies inside the packed
// tables; the bit reader checks its own reads.

extension JPEGProgressiveCoefficients {
    /// Decodes one DC scan (a first scan when `tables` is non-empty, else a refinement) into
    /// `coefficients`, as jdphuff.c `decode_mcu_DC_first` / `decode_mcu_DC_refine` would.
    /// False on any irregularity: a bad code, data running out, a wrong restart marker, or
    /// bytes left over after the last MCU; and once `deadline` has passed (checked before each
    /// row of MCUs).
    static func decodeScan(
        _ scan: JPEGScanLayout.Scan, geometry g: ScanGeometry, bytes: [UInt8], tables: [JPEGHuffmanTable],
        restartInterval: Int, into coefficients: inout [Int16], deadline: Deadline = .never
    ) -> Bool {
        precondition(g.extent <= coefficients.count, "Scan geometry outside the coefficient planes.")
        let refine = scan.ah != 0
        precondition(refine || g.table.allSatisfy { $0 < tables.count }, "Every block needs a DC table.")
        precondition(g.base.count <= 10 && scan.components.count <= 4, "At most 10 blocks and 4 components an MCU.")
        let packed = tables.flatMap(\.packed)
        let tableStarts = tables.indices.map { k in tables[..<k].reduce(0) { $0 + $1.packed.count } }
        // Per block of the MCU: base, row step, column step, table offset, component slot.
        var lanes: [Int] = []
        for b in g.base.indices {
            lanes += [g.base[b], g.rowStep[b], g.columnStep[b], refine ? 0 : tableStarts[g.table[b]], g.table[b]]
        }
        let blocks = g.base.count
        let bit = Int16(truncatingIfNeeded: 1 << scan.al)
        let al = scan.al
        let mcusPerRow = g.mcusPerRow
        let mcuRows = g.mcuRows
        return bytes.withUnsafeBufferPointer { src in
            packed.withUnsafeBufferPointer { tbl in
                lanes.withUnsafeBufferPointer { lane in
                    coefficients.withUnsafeMutableBufferPointer { out in
                        withUnsafeTemporaryAllocation(of: Int.self, capacity: 14) { scratch in
                            // predictions[0..<4], then the current row's start index of each block.
                            let predictions = scratch.baseAddress!
                            let rowStart = predictions + 4
                            predictions.update(repeating: 0, count: 4)
                            var reader = JPEGBitReader(src, data: scan.data)
                            var restarts = JPEGRestartSchedule(interval: restartInterval)
                            let table = tbl.baseAddress!
                            let coefficient = out.baseAddress!
                            for my in 0..<mcuRows {
                                if deadline.hasPassed { return false }
                                for b in 0..<blocks { rowStart[b] = lane[b * 5] &+ my &* lane[b * 5 + 1] }
                                for mx in 0..<mcusPerRow {
                                    switch restarts.beforeMCU(&reader) {
                                    case .within: break
                                    case .restarted: predictions.update(repeating: 0, count: 4)
                                    case .failed: return false
                                    }
                                    for b in 0..<blocks {
                                        let index = rowStart[b] &+ mx &* lane[b * 5 + 2]
                                        if refine {
                                            guard let set = reader.bits(1) else { return false }
                                            if set != 0 { coefficient[index] |= bit }
                                            continue
                                        }
                                        guard let size = reader.symbol(table + lane[b * 5 + 3]) else { return false }
                                        var diff = 0
                                        if size > 0 {
                                            guard let raw = reader.bits(size) else { return false }
                                            // F.2.2.1 EXTEND: a leading 0 bit means a negative difference.
                                            diff = JPEGBitReader.extend(raw, size: size)
                                        }
                                        let slot = lane[b * 5 + 4]
                                        let value = predictions[slot] &+ diff
                                        predictions[slot] = value
                                        coefficient[index] = Int16(truncatingIfNeeded: value << al)
                                    }
                                }
                            }
                            return reader.atEndOfData()
                        }
                    }
                }
            }
        }
    }
}
