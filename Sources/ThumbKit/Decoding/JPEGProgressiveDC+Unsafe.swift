// The DC scan loop. Pointer code, fenced: the entry precondition checks that the largest
// coefficient index the scan geometry can produce lies inside `coefficients`, and that every
// table index lies inside the packed tables; the bit reader checks its own reads.

extension JPEGProgressiveDC {
    /// Decodes one DC scan (a first scan when `tables` is non-empty, else a refinement) into
    /// `coefficients`, as jdphuff.c `decode_mcu_DC_first` / `decode_mcu_DC_refine` would.
    /// False on any irregularity: a bad code, data running out, a wrong restart marker, or
    /// bytes left over after the last MCU.
    static func decodeScan(
        _ scan: JPEGScanLayout.Scan, geometry g: ScanGeometry, bytes: [UInt8], tables: [JPEGHuffmanTable],
        restartInterval: Int, into coefficients: inout [Int16]
    ) -> Bool {
        precondition(g.extent <= coefficients.count, "Scan geometry outside the coefficient planes.")
        let refine = scan.ah != 0
        precondition(refine || g.table.allSatisfy { $0 < tables.count }, "Every block needs a DC table.")
        let packed = tables.flatMap(\.packed)
        let tableStarts = tables.indices.map { k in tables[..<k].reduce(0) { $0 + $1.packed.count } }
        let blockTables = g.table.map { refine ? 0 : tableStarts[$0] }
        let blockComponent = g.table
        let bit = Int16(truncatingIfNeeded: 1 << scan.al)
        let al = scan.al
        return bytes.withUnsafeBufferPointer { src in
            packed.withUnsafeBufferPointer { tbl in
                coefficients.withUnsafeMutableBufferPointer { out in
                    var reader = JPEGBitReader(src, data: scan.data)
                    var predictions = (0, 0, 0, 0)
                    var restartsToGo = restartInterval
                    var nextRestart = 0
                    let blocks = g.base.count
                    for my in 0..<g.mcuRows {
                        for mx in 0..<g.mcusPerRow {
                            if restartInterval > 0 {
                                if restartsToGo == 0 {
                                    guard reader.restart(expecting: nextRestart) else { return false }
                                    nextRestart = (nextRestart + 1) & 7
                                    restartsToGo = restartInterval
                                    predictions = (0, 0, 0, 0)
                                }
                                restartsToGo -= 1
                            }
                            for b in 0..<blocks {
                                let index = g.base[b] + my * g.rowStep[b] + mx * g.columnStep[b]
                                if refine {
                                    guard let set = reader.bits(1) else { return false }
                                    if set != 0 { out[index] |= bit }
                                    continue
                                }
                                guard let size = reader.symbol(tbl.baseAddress! + blockTables[b]) else { return false }
                                var diff = 0
                                if size > 0 {
                                    guard let raw = reader.bits(size) else { return false }
                                    // F.2.2.1 EXTEND: a leading 0 bit means a negative difference.
                                    diff = raw < 1 << (size - 1) ? raw - (1 << size) + 1 : raw
                                }
                                let value: Int
                                switch blockComponent[b] {
                                case 0: predictions.0 += diff; value = predictions.0
                                case 1: predictions.1 += diff; value = predictions.1
                                case 2: predictions.2 += diff; value = predictions.2
                                default: predictions.3 += diff; value = predictions.3
                                }
                                out[index] = Int16(truncatingIfNeeded: value << al)
                            }
                        }
                    }
                    return reader.atEndOfData()
                }
            }
        }
    }
}
