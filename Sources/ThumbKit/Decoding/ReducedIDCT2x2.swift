// SPDX-License-Identifier: Apache-2.0
/// libjpeg-turbo's 2×2 IDCT (jidctred.c `jpeg_idct_2x2`; on x86-64 `jsimd_idct_2x2_sse2`, which
/// libjpeg-turbo uses there): rows and columns 0, 1, 3, 5 and 7 of a block's dequantised
/// coefficients, 13-bit constants, two passes.
///
/// The C and SSE2 versions compute the same numbers while every dequantised coefficient and
/// every first-pass value fits in 16 bits and the result lies within −512…511 (the SSE2 code
/// multiplies and packs in 16 bits and saturates its output; the C code uses wider integers and
/// a wrapping range-limit table). Outside that range `samples` gives nil, so what it does give
/// is libjpeg's on either; real photos never leave it.
struct ReducedIDCT2x2 {
    /// For each of the 25 (row, column) pairs, row-major over rows and columns 0, 1, 3, 5, 7:
    /// the coefficient's slot in a block of kept coefficients, and its quantiser.
    private let slots: [Int]
    private let quant: [Int]

    /// The lines the 2×2 IDCT reads, in that order.
    static let lines = [0, 1, 3, 5, 7]

    /// `kept`: the block's zigzag positions (`keptPositions(idctSize: 2)`); `quantTable` in
    /// zigzag order. Quantisers above 32767 are read as libjpeg reads them: as negative 16-bit
    /// values.
    init(kept: [Int], quant quantTable: [UInt16]) {
        var slots: [Int] = []
        var quant: [Int] = []
        for row in Self.lines {
            for column in Self.lines {
                let zigzag = JPEGProgressiveCoefficients.naturalOrder.firstIndex(of: row * 8 + column)!
                let slot = kept.firstIndex(of: zigzag)
                precondition(slot != nil, "The 2×2 IDCT's coefficients are kept.")
                slots.append(slot!)
                quant.append(Int(Int16(truncatingIfNeeded: quantTable[zigzag])))
            }
        }
        self.slots = slots
        self.quant = quant
    }

    /// The block's four samples (row 0 left, right; row 1 left, right), or nil outside the range
    /// where libjpeg's versions agree.
    @inline(__always)
    func samples(_ block: UnsafePointer<Int16>) -> (UInt8, UInt8, UInt8, UInt8)? {
        // Pass 1, per column: the dequantised rows, then the even and odd parts.
        var top = (0, 0, 0, 0, 0)
        var bottom = (0, 0, 0, 0, 0)
        for column in 0..<5 {
            var z = (0, 0, 0, 0, 0)
            for row in 0..<5 {
                let i = row * 5 + column
                let value = Int(block[slots[i]]) * quant[i]
                guard value >= -32768, value <= 32767 else { return nil }
                switch row {
                case 0: z.0 = value
                case 1: z.1 = value
                case 2: z.2 = value
                case 3: z.3 = value
                default: z.4 = value
                }
            }
            let even = z.0 << 15
            let odd = Self.odd(z.1, z.2, z.3, z.4)
            let a = (even + odd + (1 << 12)) >> 13
            let b = (even - odd + (1 << 12)) >> 13
            guard a >= -32768, a <= 32767, b >= -32768, b <= 32767 else { return nil }
            switch column {
            case 0: (top.0, bottom.0) = (a, b)
            case 1: (top.1, bottom.1) = (a, b)
            case 2: (top.2, bottom.2) = (a, b)
            case 3: (top.3, bottom.3) = (a, b)
            default: (top.4, bottom.4) = (a, b)
            }
        }
        // Pass 2, per row.
        guard let (p0, p1) = Self.row(top), let (p2, p3) = Self.row(bottom) else { return nil }
        return (p0, p1, p2, p3)
    }

    /// The odd part: rows (or columns) 1, 3, 5 and 7 times √2·(c1+c3+c5+c7),
    /// √2·(−c1+c3−c5−c7), √2·(−c1+c3+c5+c7) and √2·(c7−c5+c3−c1).
    @inline(__always)
    private static func odd(_ v1: Int, _ v3: Int, _ v5: Int, _ v7: Int) -> Int {
        v1 * 29692 - v3 * 10426 + v5 * 6967 - v7 * 5906
    }

    @inline(__always)
    private static func row(_ w: (Int, Int, Int, Int, Int)) -> (UInt8, UInt8)? {
        let even = w.0 << 15
        let odd = odd(w.1, w.2, w.3, w.4)
        let left = (even + odd + (1 << 19)) >> 20
        let right = (even - odd + (1 << 19)) >> 20
        guard left >= -512, left <= 511, right >= -512, right <= 511 else { return nil }
        return (UInt8(min(max(left, -128), 127) + 128), UInt8(min(max(right, -128), 127) + 128))
    }
}
