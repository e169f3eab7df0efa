// SPDX-License-Identifier: Apache-2.0
/// libjpeg-turbo's 2×2 IDCT (jidctred.c `jpeg_idct_2x2`; on x86-64 `jsimd_idct_2x2_sse2`, which
/// libjpeg-turbo uses there): rows and columns 0, 1, 3, 5 and 7 of a block's dequantised
/// coefficients, 13-bit constants, two passes.
///
/// The C and SSE2 versions compute the same numbers while every dequantised coefficient and
/// every first-pass value fits in 16 bits and the result lies within −512…511 (the SSE2 code
/// multiplies and packs in 16 bits and saturates its output; the C code uses wider integers and
/// a wrapping range-limit table). Outside that range the kernel gives nil, so what it does give
/// is libjpeg's on either; real photos never leave it.
struct ReducedIDCT2x2 {
    /// The lines the 2×2 IDCT reads.
    static let lines = [0, 1, 3, 5, 7]

    /// For each of the 25 (row, column) pairs, row-major over `lines`: the coefficient's slot in
    /// a block that keeps `keptPositions(idctSize: 2)`.
    static let slots: [Int] = {
        let kept = JPEGProgressiveCoefficients.keptPositions(idctSize: 2)
        return lines.flatMap { row in
            lines.map { column in
                kept.firstIndex { JPEGProgressiveCoefficients.naturalOrder[$0] == row * 8 + column }!
            }
        }
    }()

    /// The quantisers in `slots`' order, read as libjpeg reads them: 16-bit signed values.
    private let quant: [Int]

    /// `quantTable` in zigzag order.
    init(quant quantTable: [UInt16]) {
        let kept = JPEGProgressiveCoefficients.keptPositions(idctSize: 2)
        quant = Self.slots.map { Int(Int16(truncatingIfNeeded: quantTable[kept[$0]])) }
    }

    /// Runs `body` with a kernel over this quantisation table.
    func withKernel<R>(_ body: (Kernel) -> R) -> R {
        Self.slots.withUnsafeBufferPointer { slots in
            quant.withUnsafeBufferPointer { quant in
                precondition(slots.count == 25 && quant.count == 25)
                return body(Kernel(slots: slots.baseAddress!, quant: quant.baseAddress!))
            }
        }
    }

    /// The IDCT of one block at a time, alive only inside `withKernel`.
    struct Kernel {
        let slots: UnsafePointer<Int>
        let quant: UnsafePointer<Int>

        /// The four samples (row 0 left, right; row 1 left, right) of the block whose kept
        /// coefficients start at `block`, or nil outside the range where libjpeg's versions agree.
        @inline(__always)
        func samples(_ block: UnsafePointer<Int16>) -> (UInt8, UInt8, UInt8, UInt8)? {
            // Most chroma blocks carry no AC coefficient here: then all four samples are the
            // DC's (both passes reduce to (4·dc + 16) >> 5, as their zero-row shortcuts do).
            var ac: Int16 = 0
            for i in 1..<25 { ac |= block[i] }
            if ac == 0 {
                let dc = Int(block[0]) &* quant[0]
                guard Self.fit16(dc, 4 &* dc, 0, 0, 0) else { return nil }
                let value = (4 * dc + 16) >> 5
                guard UInt(bitPattern: value &+ 512) < 1024 else { return nil }
                let sample = UInt8(min(max(value, -128), 127) + 128)
                return (sample, sample, sample, sample)
            }
            guard let c0 = column(block, 0), let c1 = column(block, 1), let c3 = column(block, 2),
                let c5 = column(block, 3), let c7 = column(block, 4),
                let top = Self.row(c0.0, c1.0, c3.0, c5.0, c7.0),
                let bottom = Self.row(c0.1, c1.1, c3.1, c5.1, c7.1)
            else { return nil }
            return (top.0, top.1, bottom.0, bottom.1)
        }

        /// Pass 1 over column `j` of `lines`: the values of output rows 0 and 1.
        @inline(__always)
        private func column(_ block: UnsafePointer<Int16>, _ j: Int) -> (Int, Int)? {
            let z0 = Int(block[slots[j]]) &* quant[j]
            let z1 = Int(block[slots[5 + j]]) &* quant[5 + j]
            let z3 = Int(block[slots[10 + j]]) &* quant[10 + j]
            let z5 = Int(block[slots[15 + j]]) &* quant[15 + j]
            let z7 = Int(block[slots[20 + j]]) &* quant[20 + j]
            guard Self.fit16(z0, z1, z3, z5, z7) else { return nil }
            let even = z0 << 15
            let odd = Self.odd(z1, z3, z5, z7)
            let a = (even + odd + (1 << 12)) >> 13
            let b = (even - odd + (1 << 12)) >> 13
            guard Self.fit16(a, b, 0, 0, 0) else { return nil }
            return (a, b)
        }

        /// Pass 2 over one row: its two samples.
        @inline(__always)
        private static func row(_ w0: Int, _ w1: Int, _ w3: Int, _ w5: Int, _ w7: Int) -> (UInt8, UInt8)? {
            let even = w0 << 15
            let odd = odd(w1, w3, w5, w7)
            let left = (even + odd + (1 << 19)) >> 20
            let right = (even - odd + (1 << 19)) >> 20
            guard UInt(bitPattern: left &+ 512) | UInt(bitPattern: right &+ 512) < 1024 else { return nil }
            return (UInt8(min(max(left, -128), 127) + 128), UInt8(min(max(right, -128), 127) + 128))
        }

        /// The odd part: lines 1, 3, 5 and 7 times √2·(c1+c3+c5+c7), √2·(−c1+c3−c5−c7),
        /// √2·(−c1+c3+c5+c7) and √2·(c7−c5+c3−c1).
        @inline(__always)
        private static func odd(_ v1: Int, _ v3: Int, _ v5: Int, _ v7: Int) -> Int {
            v1 * 29692 - v3 * 10426 + v5 * 6967 - v7 * 5906
        }

        /// Whether all five values fit in 16 signed bits.
        @inline(__always)
        private static func fit16(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) -> Bool {
            let bias = 32768
            return UInt(bitPattern: a &+ bias) | UInt(bitPattern: b &+ bias) | UInt(bitPattern: c &+ bias)
                | UInt(bitPattern: d &+ bias) | UInt(bitPattern: e &+ bias) < 65536
        }
    }
}
