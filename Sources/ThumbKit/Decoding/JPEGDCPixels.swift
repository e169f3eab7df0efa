// SPDX-License-Identifier: Apache-2.0
/// libjpeg's output at DCT scale 1/8, computed straight from DC coefficients when that output
/// is one pixel per block of every component: gray files, and YCbCr files whose components all
/// share one sampling factor (4:4:4). No upsampling is involved then, so the pixel is libjpeg's
/// 1×1 IDCT of each component's DC (jidctred.c `jpeg_idct_1x1`, with its range limiting)
/// followed by its YCbCr → RGB conversion (jdcolor.c, whose SIMD versions give the same
/// results); tests hold this to libjpeg's own decode for every level. Other layouts go through
/// `JPEGTranscoder` and libjpeg.
enum JPEGDCPixels {
    /// libjpeg's J_COLOR_SPACE values this handles.
    static let grayscale: Int32 = 1
    static let ycbcr: Int32 = 3

    /// RGBA8 at ceil(w/8) × ceil(h/8), or nil for a layout this does not handle.
    /// `colorSpace` is the file's colour space as libjpeg reads it (`tk_jpeg_header.color_space`).
    static func rgba(_ dc: JPEGProgressiveCoefficients, frame: JPEGScanLayout.Frame, colorSpace: Int32) -> [UInt8]? {
        precondition(dc.kept.allSatisfy { $0 == [0] }, "DC coefficients only.")
        let components = frame.components
        guard handles(frame, colorSpace: colorSpace) else { return nil }
        let isGray = components.count == 1
        let width = (frame.width + 7) / 8
        let height = (frame.height + 7) / 8
        // Each component holds exactly width × height meaningful blocks at the top left of its
        // padded grid (same sampling everywhere), one per output pixel.
        let strides = components.indices.map { frame.paddedBlocksWide($0) }
        let quant = dc.quantTables.map { Int($0[0]) }
        let tables = YCCTables.shared
        let (crToR, cbToB, crToG, cbToG) = (tables.crToR, tables.cbToB, tables.crToG, tables.cbToG)
        // Every index below is inside its block grid (`offsets` and the padded strides come from
        // the same frame), so the loop reads the coefficients without Array's checks.
        return dc.coefficients.withUnsafeBufferPointer { coefficients in
            [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
                precondition(
                    components.indices.allSatisfy {
                        dc.offsets[$0] + (height - 1) * strides[$0] + width <= coefficients.count
                    }, "Output size outside the DC grid.")
                var o = 0
                for y in 0..<height {
                    let rowY = dc.offsets[0] + y * strides[0]
                    if isGray {
                        for x in 0..<width {
                            let v = UInt8(sample(coefficients[rowY + x], quant: quant[0]))
                            out[o] = v
                            out[o + 1] = v
                            out[o + 2] = v
                            out[o + 3] = 255
                            o += 4
                        }
                        continue
                    }
                    let rowCb = dc.offsets[1] + y * strides[1]
                    let rowCr = dc.offsets[2] + y * strides[2]
                    let (qY, qCb, qCr) = (quant[0], quant[1], quant[2])
                    for x in 0..<width {
                        let luma = sample(coefficients[rowY + x], quant: qY)
                        let cb = sample(coefficients[rowCb + x], quant: qCb)
                        let cr = sample(coefficients[rowCr + x], quant: qCr)
                        out[o] = clamp(luma + crToR[cr])
                        out[o + 1] = clamp(luma + (cbToG[cb] + crToG[cr]) >> 16)
                        out[o + 2] = clamp(luma + cbToB[cb])
                        out[o + 3] = 255
                        o += 4
                    }
                }
                initialized = width * height * 4
            }
        }
    }

    /// Whether `rgba` handles `frame` in `colorSpace`: one gray component, or three YCbCr
    /// components sharing one sampling factor.
    static func handles(_ frame: JPEGScanLayout.Frame, colorSpace: Int32) -> Bool {
        let components = frame.components
        if colorSpace == grayscale { return components.count == 1 }
        return colorSpace == ycbcr && components.count == 3
            && components.allSatisfy { $0.h == components[0].h && $0.v == components[0].v }
    }

    /// `jpeg_idct_1x1`: the dequantised DC, descaled by 8 with rounding, then libjpeg's post-IDCT
    /// range limit (indexed by the value masked to 10 bits: −128…127 → 0…255, up to 511 → 255,
    /// −512 and below −128 → 0, wrapping beyond as libjpeg's table does). Products wrap as C ints.
    @inline(__always)
    static func sample(_ coefficient: Int16, quant: Int) -> Int {
        let product = Int(Int32(truncatingIfNeeded: Int(coefficient) * quant))
        let value = Int(Int32(truncatingIfNeeded: (product + 4) >> 3))
        let j = value & 1023
        return j < 128 ? j + 128 : j < 512 ? 255 : j < 896 ? 0 : j - 896
    }

    @inline(__always)
    static func clamp(_ v: Int) -> UInt8 {
        UInt8(min(max(v, 0), 255))
    }

    /// jdcolor.c `build_ycc_rgb_table`: 16-bit fixed point, rounded as libjpeg rounds.
    struct YCCTables: Sendable {
        let crToR: [Int]
        let cbToB: [Int]
        let crToG: [Int]
        let cbToG: [Int]

        static let shared = YCCTables()

        private init() {
            func fix(_ x: Double) -> Int { Int(x * 65536 + 0.5) }
            let half = 1 << 15
            crToR = (0..<256).map { (fix(1.40200) * ($0 - 128) + half) >> 16 }
            cbToB = (0..<256).map { (fix(1.77200) * ($0 - 128) + half) >> 16 }
            crToG = (0..<256).map { -fix(0.71414) * ($0 - 128) }
            cbToG = (0..<256).map { -fix(0.34414) * ($0 - 128) + half }
        }
    }
}
