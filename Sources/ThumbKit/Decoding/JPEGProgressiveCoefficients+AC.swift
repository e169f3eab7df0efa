// SPDX-License-Identifier: Apache-2.0
// The AC scan loops. Pointer code, fenced: the entry preconditions check that the component's
// last block (its kept values and its nonzero flags) lies inside the buffers; kept slots are
// below the block size by construction (ACState); the bit reader checks its own reads.

extension JPEGProgressiveCoefficients {
    /// Decodes one AC scan (one component, band Ss…Se) into the kept coefficients and every
    /// block's nonzero flags, as jdphuff.c `decode_mcu_AC_first` / `decode_mcu_AC_refine` would.
    /// False on any irregularity, including where libjpeg would warn (a refinement symbol of
    /// size other than 1) or write outside the band (a run past Se), and once `deadline` has
    /// passed (checked before each row of blocks).
    static func decodeACScan(
        _ scan: JPEGScanLayout.Scan, frame: JPEGScanLayout.Frame, table: JPEGHuffmanTable, bytes: [UInt8],
        restartInterval: Int, state: inout ACState, into coefficients: inout [Int16], offsets: [Int],
        deadline: Deadline = .never
    ) -> Bool {
        let c = scan.components[0]
        let wide = frame.blocksWide(c)
        let high = frame.blocksHigh(c)
        let stride = frame.paddedBlocksWide(c)
        let blockSize = state.blockSizes[c]
        let valueBase = offsets[c]
        let flagBase = state.nonzeroOffsets[c]
        let lastBlock = (high - 1) * stride + (wide - 1)
        precondition(valueBase + (lastBlock + 1) * blockSize <= coefficients.count, "AC scan outside the coefficients.")
        precondition(flagBase + lastBlock + 1 <= state.nonzero.count, "AC scan outside the nonzero flags.")
        let ss = scan.ss
        let se = scan.se
        let al = scan.al
        let refine = scan.ah != 0
        let p1 = Int16(truncatingIfNeeded: 1 << al)
        let m1 = Int16(truncatingIfNeeded: -1 << al)
        let slots = state.slots[c]
        return bytes.withUnsafeBufferPointer { src in
            table.packed.withUnsafeBufferPointer { tbl in
                slots.withUnsafeBufferPointer { slot in
                    coefficients.withUnsafeMutableBufferPointer { values in
                        state.nonzero.withUnsafeMutableBufferPointer { flags in
                            var reader = JPEGBitReader(src, data: scan.data)
                            let huffman = tbl.baseAddress!
                            var eobrun = 0
                            var restarts = JPEGRestartSchedule(interval: restartInterval)
                            for by in 0..<high {
                                if deadline.hasPassed { return false }
                                for bx in 0..<wide {
                                    switch restarts.beforeMCU(&reader) {
                                    case .within: break
                                    case .restarted: eobrun = 0
                                    case .failed: return false
                                    }
                                    let block = by &* stride &+ bx
                                    let value = values.baseAddress! + (valueBase &+ block &* blockSize)
                                    var mask = flags[flagBase &+ block]
                                    if !refine {
                                        // First scan of the band.
                                        if eobrun > 0 {
                                            eobrun -= 1
                                            continue
                                        }
                                        var k = ss
                                        while k <= se {
                                            guard let rs = reader.symbol(huffman) else { return false }
                                            let r = rs >> 4
                                            let s = rs & 15
                                            if s != 0 {
                                                k += r
                                                guard k <= se, let raw = reader.bits(s) else { return false }
                                                let v = JPEGBitReader.extend(raw, size: s)
                                                let stored = Int16(truncatingIfNeeded: v << al)
                                                if stored != 0 { mask |= 1 << UInt64(k) }
                                                let at = Int(slot[k])
                                                if at >= 0 { value[at] = stored }
                                                k += 1
                                            } else if r == 15 {
                                                k += 16  // sixteen zeros
                                            } else {
                                                eobrun = 1 << r
                                                if r > 0 {
                                                    guard let extra = reader.bits(r) else { return false }
                                                    eobrun += extra
                                                }
                                                eobrun -= 1
                                                break
                                            }
                                        }
                                        flags[flagBase &+ block] = mask
                                        continue
                                    }
                                    // Refinement: one more bit for every nonzero coefficient, and
                                    // new coefficients of ±2^Al among the zero ones. Positions are
                                    // found with bit operations on the nonzero flags.
                                    var k = ss
                                    if eobrun == 0 {
                                        while k <= se {
                                            guard let rs = reader.symbol(huffman) else { return false }
                                            let run = rs >> 4
                                            let s = rs & 15
                                            var fresh: Int16 = 0
                                            if s != 0 {
                                                guard s == 1, let sign = reader.bits(1) else { return false }
                                                fresh = sign != 0 ? p1 : m1
                                            } else if run != 15 {
                                                eobrun = 1 << run
                                                if run > 0 {
                                                    guard let extra = reader.bits(run) else { return false }
                                                    eobrun += extra
                                                }
                                                break  // the rest of the block goes with the end-of-band run
                                            }
                                            // The target: the (run+1)-th zero coefficient from k on, within
                                            // the band; every nonzero one before it takes a correction bit.
                                            var zeros = ~mask & band(from: k, through: se)
                                            for _ in 0..<run where zeros != 0 { zeros &= zeros &- 1 }
                                            let target = zeros == 0 ? se + 1 : zeros.trailingZeroBitCount
                                            let passed = mask & band(from: k, through: target - 1)
                                            guard
                                                correct(
                                                    passed, reader: &reader, slot: slot, value: value, p1: p1, m1: m1)
                                            else { return false }
                                            k = target
                                            if s != 0 {
                                                guard k <= se else { return false }
                                                mask |= 1 << UInt64(k)
                                                let slotAt = Int(slot[k])
                                                if slotAt >= 0 { value[slotAt] = fresh }
                                            }
                                            k += 1
                                        }
                                    }
                                    if eobrun > 0 {
                                        let passed = k <= se ? mask & band(from: k, through: se) : 0
                                        guard
                                            correct(passed, reader: &reader, slot: slot, value: value, p1: p1, m1: m1)
                                        else { return false }
                                        eobrun -= 1
                                    }
                                    flags[flagBase &+ block] = mask
                                }
                            }
                            return reader.atEndOfData()
                        }
                    }
                }
            }
        }
    }

    /// Refinement's correction bits: one bit for each already-nonzero coefficient in `passed`
    /// (a mask of positions); a set bit adds ±2^Al (`p1` or `m1`, by the value's sign) to a kept
    /// coefficient that does not have it yet. False when the data runs out.
    @inline(__always)
    private static func correct(
        _ passed: UInt64, reader: inout JPEGBitReader, slot: UnsafeBufferPointer<Int8>,
        value: UnsafeMutablePointer<Int16>, p1: Int16, m1: Int16
    ) -> Bool {
        var passed = passed
        while passed != 0 {
            let at = passed.trailingZeroBitCount
            passed &= passed &- 1
            guard let more = reader.bits(1) else { return false }
            let slotAt = Int(slot[at])
            if more != 0 && slotAt >= 0 && value[slotAt] & p1 == 0 {
                value[slotAt] = value[slotAt] &+ (value[slotAt] >= 0 ? p1 : m1)
            }
        }
        return true
    }

    /// Bits `from`…`through` of a 64-bit mask (empty when `through` < `from`).
    @inline(__always)
    private static func band(from: Int, through: Int) -> UInt64 {
        guard through >= from else { return 0 }
        let high: UInt64 = through >= 63 ? ~0 : (1 << UInt64(through + 1)) &- 1
        return high & ~((1 << UInt64(from)) &- 1)
    }
}
