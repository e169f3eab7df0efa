import Foundation

// The resampler's hot loops. This is the only processing file that touches raw pointers.
//
// Memory: the intermediate image holds only the source rows the vertical pass reads, each only
// `outputWidth` pixels wide (4 Floats a pixel), so a 12 MP source reduced to 88 px wide needs
// well under a megabyte beyond the source itself.

extension Resampler.Plan {
    func run(_ source: PixelBuffer) -> PixelBuffer {
        let outWidth = horizontal.outputCount
        let outHeight = vertical.outputCount
        let rowBase = vertical.minSource
        let rowCount = vertical.maxSource - vertical.minSource
        let interStride = outWidth * 4
        let intermediate = UnsafeMutableBufferPointer<Float>.allocate(capacity: rowCount * interStride)
        defer { intermediate.deallocate() }

        source.pixels.withUnsafeBufferPointer { src in
            horizontalPass(
                src, sourceWidth: source.width, sourceHeight: source.height,
                rowBase: rowBase, rowCount: rowCount, into: intermediate)
        }
        // Out of time: some intermediate rows were never written, so never read them. (The
        // deadline stays passed, so the caller sees it too and discards this blank result.)
        if deadline.hasPassed {
            let blank = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
            return PixelBuffer(width: outWidth, height: outHeight, pixels: blank)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 4) { out, initialized in
            verticalPass(intermediate, rowBase: rowBase, into: out)
            initialized = outWidth * outHeight * 4
        }
        return PixelBuffer(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// Fills `rowCount` intermediate rows: box-reduced, premultiplied, horizontally filtered.
    private func horizontalPass(
        _ src: UnsafeBufferPointer<UInt8>, sourceWidth: Int, sourceHeight: Int,
        rowBase: Int, rowCount: Int, into intermediate: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(src.count == sourceWidth * sourceHeight * 4, "Source buffer size mismatch.")
        let colBase = horizontal.minSource
        let colCount = horizontal.maxSource - horizontal.minSource
        let outWidth = horizontal.outputCount
        let chunks = (rowCount + Resampler.rowsPerChunk - 1) / Resampler.rowsPerChunk
        // Safe to share: iteration i writes only intermediate rows
        // [i·rowsPerChunk, min((i+1)·rowsPerChunk, rowCount)), so writes never overlap; the
        // source and the weights are only read; concurrentPerform returns after every write.
        nonisolated(unsafe) let dst = intermediate.baseAddress!
        nonisolated(unsafe) let srcBase = src.baseAddress!
        let plan = self
        forEachChunk(chunks) { chunk in
            if plan.deadline.hasPassed { return }  // run() then returns a blank image
            let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, colCount) * 4)
            defer { scratch.deallocate() }
            let first = chunk * Resampler.rowsPerChunk
            let last = min(first + Resampler.rowsPerChunk, rowCount)
            plan.horizontal.weights.withUnsafeBufferPointer { weights in
                for r in first..<last {
                    plan.loadReducedRow(
                        srcBase, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                        reducedRow: rowBase + r, colBase: colBase, colCount: colCount, into: scratch)
                    plan.filterRow(
                        scratch, colBase: colBase, weights: weights,
                        into: dst + r * outWidth * 4)
                }
            }
        }
    }

    /// Writes reduced-image row `reducedRow`, columns [colBase, colBase+colCount), as
    /// premultiplied working values: the average of a boxX × boxY block of source pixels.
    @inline(__always)
    private func loadReducedRow(
        _ src: UnsafePointer<UInt8>, sourceWidth: Int, sourceHeight: Int, reducedRow: Int,
        colBase: Int, colCount: Int, into scratch: UnsafeMutableBufferPointer<Float>
    ) {
        let lut = transfer.decode
        lut.withUnsafeBufferPointer { lut in
            let y0 = reducedRow * boxY
            let y1 = min(y0 + boxY, sourceHeight)
            if boxX == 1 && boxY == 1 {
                let row = src + (y0 * sourceWidth + colBase) * 4
                for c in 0..<colCount {
                    let p = row + c * 4
                    let a = Float(p[3]) * (1 / 255)
                    scratch[c * 4] = lut[Int(p[0])] * a
                    scratch[c * 4 + 1] = lut[Int(p[1])] * a
                    scratch[c * 4 + 2] = lut[Int(p[2])] * a
                    scratch[c * 4 + 3] = a
                }
                return
            }
            for c in 0..<colCount {
                let x0 = (colBase + c) * boxX
                let x1 = min(x0 + boxX, sourceWidth)
                var r: Float = 0, g: Float = 0, b: Float = 0, alpha: Float = 0
                for y in y0..<y1 {
                    let row = src + (y * sourceWidth) * 4
                    for x in x0..<x1 {
                        let p = row + x * 4
                        let a = Float(p[3]) * (1 / 255)
                        r += lut[Int(p[0])] * a
                        g += lut[Int(p[1])] * a
                        b += lut[Int(p[2])] * a
                        alpha += a
                    }
                }
                let inv = 1 / Float((y1 - y0) * (x1 - x0))
                scratch[c * 4] = r * inv
                scratch[c * 4 + 1] = g * inv
                scratch[c * 4 + 2] = b * inv
                scratch[c * 4 + 3] = alpha * inv
            }
        }
    }

    /// Applies the horizontal weights to one premultiplied row.
    @inline(__always)
    private func filterRow(
        _ row: UnsafeMutableBufferPointer<Float>, colBase: Int, weights: UnsafeBufferPointer<Float>,
        into out: UnsafeMutablePointer<Float>
    ) {
        let stride = horizontal.stride
        horizontal.starts.withUnsafeBufferPointer { starts in
            horizontal.counts.withUnsafeBufferPointer { counts in
                for x in 0..<starts.count {
                    let w = weights.baseAddress! + x * stride
                    var p = row.baseAddress! + (starts[x] - colBase) * 4
                    var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                    for t in 0..<counts[x] {
                        let wt = w[t]
                        r += wt * p[0]
                        g += wt * p[1]
                        b += wt * p[2]
                        a += wt * p[3]
                        p += 4
                    }
                    out[x * 4] = r
                    out[x * 4 + 1] = g
                    out[x * 4 + 2] = b
                    out[x * 4 + 3] = a
                }
            }
        }
    }

    /// Filters the intermediate rows vertically, un-premultiplies and rounds into `out`.
    private func verticalPass(
        _ intermediate: UnsafeMutableBufferPointer<Float>, rowBase: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        let outWidth = horizontal.outputCount
        let outHeight = vertical.outputCount
        let rowLength = outWidth * 4
        precondition(out.count == rowLength * outHeight, "Output buffer size mismatch.")
        let chunks = (outHeight + Resampler.rowsPerChunk - 1) / Resampler.rowsPerChunk
        // Safe to share: iteration i writes only output rows [i·rowsPerChunk, …) of `out`;
        // the intermediate rows and weights are only read; all writes end before return.
        nonisolated(unsafe) let dst = out.baseAddress!
        nonisolated(unsafe) let inter = UnsafePointer(intermediate.baseAddress!)
        let plan = self
        forEachChunk(chunks) { chunk in
            let first = chunk * Resampler.rowsPerChunk
            let last = min(first + Resampler.rowsPerChunk, outHeight)
            if plan.deadline.hasPassed {  // out of time: blank rows, never garbage
                (dst + first * rowLength).initialize(repeating: 0, count: (last - first) * rowLength)
                return
            }
            let acc = UnsafeMutableBufferPointer<Float>.allocate(capacity: rowLength)
            defer { acc.deallocate() }
            plan.vertical.weights.withUnsafeBufferPointer { weights in
                for y in first..<last {
                    acc.initialize(repeating: 0)
                    let start = plan.vertical.starts[y]
                    let w = weights.baseAddress! + y * plan.vertical.stride
                    for t in 0..<plan.vertical.counts[y] {
                        let wt = w[t]
                        let row = inter + (start + t - rowBase) * rowLength
                        // Row-major accumulate: LLVM vectorises this loop.
                        for i in 0..<rowLength { acc[i] += wt * row[i] }
                    }
                    plan.storeRow(acc, into: dst + y * rowLength)
                }
            }
        }
    }

    /// Un-premultiplies one row of working values and rounds to 8-bit straight alpha.
    @inline(__always)
    private func storeRow(_ acc: UnsafeMutableBufferPointer<Float>, into out: UnsafeMutablePointer<UInt8>) {
        if let encode = transfer.encode {
            let scale = transfer.encodeScale
            encode.withUnsafeBufferPointer { table in
                Self.unpremultiply(acc, into: out) { table[Int($0 * scale + 0.5)] }
            }
        } else {
            Self.unpremultiply(acc, into: out) { UInt8($0 * 255 + 0.5) }
        }
    }

    /// Divides each pixel's colour by its alpha (clamped to [0, 1]) and stores it through
    /// `encode` (working value in [0, 1] → 8-bit sample); alpha is rounded to 8 bits, and a pixel
    /// whose alpha rounds to 0 is stored as transparent black.
    @inline(__always)
    private static func unpremultiply(
        _ acc: UnsafeMutableBufferPointer<Float>, into out: UnsafeMutablePointer<UInt8>, encode: (Float) -> UInt8
    ) {
        for i in 0..<(acc.count / 4) {
            let a = min(max(acc[i * 4 + 3], 0), 1)
            let alpha = UInt8(a * 255 + 0.5)
            out[i * 4 + 3] = alpha
            if alpha == 0 {
                out[i * 4] = 0
                out[i * 4 + 1] = 0
                out[i * 4 + 2] = 0
                continue
            }
            let inv = 1 / a
            for c in 0..<3 { out[i * 4 + c] = encode(min(max(acc[i * 4 + c] * inv, 0), 1)) }
        }
    }
}
