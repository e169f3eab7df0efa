// SPDX-License-Identifier: Apache-2.0
/// libjpeg's output at DCT scale 1/8, computed straight from the coefficients its scaled IDCTs
/// read, for gray files and for YCbCr files whose components reach 1/8 through a 1×1 or 2×2
/// IDCT and whole-number upsampling: 4:4:4, 4:2:2, 4:4:0, 4:1:1 (1×1 everywhere, chroma
/// replicated) and 4:2:0 (chroma through a 2×2 IDCT, no upsampling).
///
/// At 1/8 libjpeg gives each component an IDCT of `ImageDecoders.JPEG.idctSize` (it scales a
/// subsampled component's IDCT up rather than upsample it), and it upsamples what is left by
/// replication: its smooth ("fancy") upsampling is off whenever the smallest IDCT is 1×1
/// (jdsample.c), and it never merges upsampling with colour conversion while fancy upsampling
/// is asked for (jdmaster.c). So each output pixel is one IDCT sample of each component
/// (`jpeg_idct_1x1`, or `jpeg_idct_2x2` as libjpeg-turbo's SSE2 code computes it) followed by
/// its YCbCr → RGB conversion (jdcolor.c, whose SIMD versions give the same results). Tests
/// hold this to libjpeg's own decode; other layouts go through `JPEGTranscoder` and libjpeg.
enum JPEGScaledPixels {
    /// libjpeg's J_COLOR_SPACE values this handles.
    static let grayscale: Int32 = 1
    static let ycbcr: Int32 = 3

    /// How one component reaches the output: its IDCT size (1 or 2) and how many output pixels
    /// across and down each IDCT sample is replicated to.
    struct Plan: Equatable {
        let idctSize: Int
        let across: Int
        let down: Int
    }

    /// Each component's plan, or nil for a layout this does not handle. `colorSpace` is the
    /// file's colour space as libjpeg reads it (`tk_jpeg_header.color_space`).
    static func plans(_ frame: JPEGScanLayout.Frame, colorSpace: Int32) -> [Plan]? {
        let components = frame.components
        if colorSpace == grayscale {
            return components.count == 1 ? [Plan(idctSize: 1, across: 1, down: 1)] : nil
        }
        guard colorSpace == ycbcr, components.count == 3 else { return nil }
        var plans: [Plan] = []
        for component in components {
            let size = ImageDecoders.JPEG.idctSizeAtOneEighth(component, frame: frame)
            guard size <= 2, frame.maxH % (component.h * size) == 0, frame.maxV % (component.v * size) == 0
            else { return nil }
            plans.append(
                Plan(idctSize: size, across: frame.maxH / (component.h * size), down: frame.maxV / (component.v * size))
            )
        }
        return plans
    }

    /// Whether `rgba` handles `frame` in `colorSpace` (given the coefficients its plans need).
    static func handles(_ frame: JPEGScanLayout.Frame, colorSpace: Int32) -> Bool {
        plans(frame, colorSpace: colorSpace) != nil
    }

    /// RGBA8 at ceil(w/8) × ceil(h/8); nil for a layout this does not handle, for coefficients
    /// that are not exactly the ones each component's IDCT reads (`keptPositions`), and for a
    /// 2×2 block whose values leave the range where libjpeg's C and SIMD IDCTs agree (16-bit
    /// products and intermediates; no photo comes near it).
    static func rgba(_ decoded: JPEGProgressiveCoefficients, frame: JPEGScanLayout.Frame, colorSpace: Int32)
        -> [UInt8]?
    {
        guard let plans = plans(frame, colorSpace: colorSpace),
            frame.components.indices.allSatisfy({
                decoded.kept[$0] == JPEGProgressiveCoefficients.keptPositions(idctSize: plans[$0].idctSize)
            })
        else { return nil }
        let width = (frame.width + 7) / 8
        let height = (frame.height + 7) / 8
        var planes: [[UInt8]] = []
        for c in frame.components.indices {
            guard
                let plane = Self.plane(
                    decoded, component: c, frame: frame, plan: plans[c], width: width, height: height)
            else { return nil }
            planes.append(plane)
        }
        let count = width * height
        if planes.count == 1 {
            return [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
                for (i, v) in planes[0].enumerated() {
                    out[4 * i] = v
                    out[4 * i + 1] = v
                    out[4 * i + 2] = v
                    out[4 * i + 3] = 255
                }
                initialized = count * 4
            }
        }
        let tables = YCCTables.shared
        return planes[0].withUnsafeBufferPointer { luma in
            planes[1].withUnsafeBufferPointer { cb in
                planes[2].withUnsafeBufferPointer { cr in
                    tables.crToR.withUnsafeBufferPointer { crToR in
                        tables.cbToB.withUnsafeBufferPointer { cbToB in
                            tables.crToG.withUnsafeBufferPointer { crToG in
                                tables.cbToG.withUnsafeBufferPointer { cbToG in
                                    [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
                                        precondition(luma.count == count && cb.count == count && cr.count == count)
                                        for i in 0..<count {
                                            let y = Int(luma[i])
                                            let b = Int(cb[i])
                                            let r = Int(cr[i])
                                            out[4 * i] = clamp(y + crToR[r])
                                            out[4 * i + 1] = clamp(y + (cbToG[b] + crToG[r]) >> 16)
                                            out[4 * i + 2] = clamp(y + cbToB[b])
                                            out[4 * i + 3] = 255
                                        }
                                        initialized = count * 4
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One component's samples for each of the `width` × `height` output pixels: its IDCT
    /// output over the blocks the output reaches, replicated as its plan says. Nil when a 2×2
    /// block leaves the range `ReducedIDCT2x2` answers for.
    static func plane(
        _ decoded: JPEGProgressiveCoefficients, component c: Int, frame: JPEGScanLayout.Frame, plan: Plan,
        width: Int, height: Int
    ) -> [UInt8]? {
        let size = plan.idctSize
        // The IDCT output the output pixels reach, and the blocks that hold it.
        let columns = (width + plan.across - 1) / plan.across
        let rows = (height + plan.down - 1) / plan.down
        let blocksWide = (columns + size - 1) / size
        let blocksHigh = (rows + size - 1) / size
        let count = decoded.kept[c].count
        let blockStride = frame.paddedBlocksWide(c) * count
        let offset = decoded.offsets[c]
        precondition(
            blocksWide <= frame.paddedBlocksWide(c) && blocksHigh <= frame.paddedBlocksHigh(c)
                && offset + (blocksHigh - 1) * blockStride + blocksWide * count <= decoded.coefficients.count,
            "Output outside the component's blocks.")
        let stride = blocksWide * size
        var failed = false
        let samples = decoded.coefficients.withUnsafeBufferPointer { coefficients in
            [UInt8](unsafeUninitializedCapacity: stride * blocksHigh * size) { out, initialized in
                initialized = stride * blocksHigh * size
                let base = coefficients.baseAddress! + offset
                if size == 1 {
                    let q = Int(decoded.quantTables[c][0])
                    for by in 0..<blocksHigh {
                        for bx in 0..<blocksWide {
                            out[by * stride + bx] = UInt8(sample(base[by * blockStride + bx], quant: q))
                        }
                    }
                    return
                }
                let idct = ReducedIDCT2x2(quant: decoded.quantTables[c])
                failed = !idct.withKernel { kernel in
                    for by in 0..<blocksHigh {
                        for bx in 0..<blocksWide {
                            guard let p = kernel.samples(base + by * blockStride + bx * count) else { return false }
                            let o = 2 * by * stride + 2 * bx
                            out[o] = p.0
                            out[o + 1] = p.1
                            out[o + stride] = p.2
                            out[o + stride + 1] = p.3
                        }
                    }
                    return true
                }
            }
        }
        if failed { return nil }
        if plan.across == 1, plan.down == 1, stride == width, samples.count == width * height { return samples }
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            samples.withUnsafeBufferPointer { samples in
                precondition(((height - 1) / plan.down) * stride + (width - 1) / plan.across < samples.count)
                for y in 0..<height {
                    let row = samples.baseAddress! + (y / plan.down) * stride
                    let target = out.baseAddress! + y * width
                    switch plan.across {
                    case 1: target.update(from: row, count: width)
                    case 2: for x in 0..<width { target[x] = row[x &>> 1] }
                    default: for x in 0..<width { target[x] = row[x / plan.across] }
                    }
                }
            }
            initialized = width * height
        }
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
