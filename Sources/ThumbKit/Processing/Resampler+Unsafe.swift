// SPDX-License-Identifier: Apache-2.0
import Foundation

// The resampler's hot loops. This is the only processing file that touches raw pointers.
//
// Memory: the intermediate image holds only the source rows the vertical pass reads, each only
// `outputWidth` pixels wide (4 Floats a pixel), so a 12 MP source reduced to 88 px wide needs
// well under a megabyte beyond the source itself. `RowSink` builds the same intermediate from
// rows as a decoder produces them, so the source itself need not be in memory either.

extension Resampler.Plan {
    /// Intermediate rows the vertical pass reads: reduced rows [rowBase, rowBase + rowCount).
    var rowBase: Int { vertical.minSource }
    var rowCount: Int { vertical.maxSource - vertical.minSource }

    func run(_ source: PixelBuffer) -> PixelBuffer {
        precondition(
            source.width == sourceWidth && source.height == sourceHeight, "Source size differs from the plan's.")
        if threads == 1 {
            // One thread: stream the rows through a RowSink (same arithmetic, far less memory).
            let sink = Resampler.RowSink(plan: self)
            let outOfTime = source.pixels.withUnsafeBufferPointer { src in
                for y in 0..<sourceHeight {
                    if y % Resampler.rowsPerChunk == 0 && deadline.hasPassed { return true }
                    sink.consume(src.baseAddress! + y * sourceWidth * 4)
                }
                return false
            }
            return outOfTime ? blank() : sink.finish()
        }
        let intermediate = UnsafeMutableBufferPointer<Float>.allocate(
            capacity: max(1, rowCount * horizontal.outputCount * 4))
        defer { intermediate.deallocate() }
        source.pixels.withUnsafeBufferPointer { src in
            horizontalPass(src, into: intermediate)
        }
        // Out of time: some intermediate rows were never written, so never read them. (The
        // deadline stays passed, so the caller sees it too and discards this blank result.)
        if deadline.hasPassed { return blank() }
        return output(from: intermediate)
    }

    /// The all-zero image of the output's size: what a resize cut short by the deadline returns
    /// (never garbage; the caller sees the passed deadline and discards it).
    func blank() -> PixelBuffer {
        let count = horizontal.outputCount * vertical.outputCount * 4
        return PixelBuffer(
            width: horizontal.outputCount, height: vertical.outputCount, pixels: [UInt8](repeating: 0, count: count))
    }

    /// The output image: the intermediate rows filtered vertically.
    func output(from intermediate: UnsafeMutableBufferPointer<Float>) -> PixelBuffer {
        let outWidth = horizontal.outputCount
        let outHeight = vertical.outputCount
        let pixels = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 4) { out, initialized in
            verticalPass(intermediate, rowBase: rowBase, into: out)
            initialized = outWidth * outHeight * 4
        }
        return PixelBuffer(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// Fills `rowCount` intermediate rows: box-reduced, premultiplied, horizontally filtered.
    private func horizontalPass(_ src: UnsafeBufferPointer<UInt8>, into intermediate: UnsafeMutableBufferPointer<Float>)
    {
        precondition(src.count == sourceWidth * sourceHeight * 4, "Source buffer size mismatch.")
        let colCount = horizontal.maxSource - horizontal.minSource
        let outWidth = horizontal.outputCount
        let rowBase = self.rowBase
        let rowCount = self.rowCount
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
            for r in first..<last {
                let y0 = (rowBase + r) * plan.boxY
                let y1 = min(y0 + plan.boxY, plan.sourceHeight)
                if plan.boxX == 1 && plan.boxY == 1 {
                    plan.loadRow(srcBase + y0 * plan.sourceWidth * 4, into: scratch)
                } else {
                    scratch.initialize(repeating: 0)
                    for y in y0..<y1 { plan.accumulateRow(srcBase + y * plan.sourceWidth * 4, into: scratch) }
                    plan.averageBoxes(scratch, rows: y1 - y0)
                }
                plan.filterRow(scratch, into: dst + r * outWidth * 4)
            }
        }
    }

    /// Writes columns [colBase, colBase+colCount) of one source row as premultiplied working
    /// values (no box reduction).
    @inline(__always)
    fileprivate func loadRow(_ row: UnsafePointer<UInt8>, into scratch: UnsafeMutableBufferPointer<Float>) {
        let colBase = horizontal.minSource
        let colCount = horizontal.maxSource - horizontal.minSource
        transfer.decode.withUnsafeBufferPointer { lut in
            let base = row + colBase * 4
            for c in 0..<colCount {
                let p = base + c * 4
                let a = Float(p[3]) * (1 / 255)
                scratch[c * 4] = lut[Int(p[0])] * a
                scratch[c * 4 + 1] = lut[Int(p[1])] * a
                scratch[c * 4 + 2] = lut[Int(p[2])] * a
                scratch[c * 4 + 3] = a
            }
        }
    }

    /// Adds one source row's premultiplied working values to the box sums of reduced columns
    /// [colBase, colBase+colCount). Sums grow row by row, left to right within a box: the same
    /// order whether rows come from a buffer or a decoder, so both give identical results.
    @inline(__always)
    fileprivate func accumulateRow(_ row: UnsafePointer<UInt8>, into sums: UnsafeMutableBufferPointer<Float>) {
        let colBase = horizontal.minSource
        let colCount = horizontal.maxSource - horizontal.minSource
        transfer.decode.withUnsafeBufferPointer { lut in
            for c in 0..<colCount {
                let x0 = (colBase + c) * boxX
                let x1 = min(x0 + boxX, sourceWidth)
                var r = sums[c * 4]
                var g = sums[c * 4 + 1]
                var b = sums[c * 4 + 2]
                var alpha = sums[c * 4 + 3]
                for x in x0..<x1 {
                    let p = row + x * 4
                    let a = Float(p[3]) * (1 / 255)
                    r += lut[Int(p[0])] * a
                    g += lut[Int(p[1])] * a
                    b += lut[Int(p[2])] * a
                    alpha += a
                }
                sums[c * 4] = r
                sums[c * 4 + 1] = g
                sums[c * 4 + 2] = b
                sums[c * 4 + 3] = alpha
            }
        }
    }

    /// Turns box sums over `rows` source rows into averages.
    @inline(__always)
    fileprivate func averageBoxes(_ sums: UnsafeMutableBufferPointer<Float>, rows: Int) {
        let colBase = horizontal.minSource
        let colCount = horizontal.maxSource - horizontal.minSource
        for c in 0..<colCount {
            let x0 = (colBase + c) * boxX
            let x1 = min(x0 + boxX, sourceWidth)
            let inv = 1 / Float(rows * (x1 - x0))
            sums[c * 4] *= inv
            sums[c * 4 + 1] *= inv
            sums[c * 4 + 2] *= inv
            sums[c * 4 + 3] *= inv
        }
    }

    /// Applies the horizontal weights to one premultiplied row.
    @inline(__always)
    fileprivate func filterRow(_ row: UnsafeMutableBufferPointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let stride = horizontal.stride
        let colBase = horizontal.minSource
        horizontal.weights.withUnsafeBufferPointer { weights in
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
    fileprivate func storeRow(_ acc: UnsafeMutableBufferPointer<Float>, into out: UnsafeMutablePointer<UInt8>) {
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

extension Resampler {
    /// Resamples rows handed over top-down, one at a time, as a decoder produces them: each
    /// source row (box-summed when the plan pre-shrinks) is filtered horizontally into a ring of
    /// intermediate rows, and each output row is filtered vertically as soon as its last input
    /// row is in. Memory is the ring (as many rows as the vertical filter has taps), one reduced
    /// row and the output, never the source or the whole intermediate.
    ///
    /// The arithmetic is `Plan.run`'s, in the same order, so the output is bit-identical to
    /// resampling the whole decoded buffer with any number of threads. Single-threaded.
    final class RowSink {
        let plan: Plan
        private let ring: UnsafeMutableBufferPointer<Float>
        private let ringRows: Int
        private let sums: UnsafeMutableBufferPointer<Float>
        private let acc: UnsafeMutableBufferPointer<Float>
        private var output: [UInt8]
        private var nextRow = 0
        private var nextOutput = 0

        init(plan: Plan) {
            self.plan = plan
            let rowLength = plan.horizontal.outputCount * 4
            ringRows = max(1, plan.vertical.counts.max() ?? 1)
            ring = .allocate(capacity: ringRows * rowLength)
            sums = .allocate(capacity: max(1, plan.horizontal.maxSource - plan.horizontal.minSource) * 4)
            acc = .allocate(capacity: rowLength)
            output = [UInt8](repeating: 0, count: rowLength * plan.vertical.outputCount)
        }

        deinit {
            ring.deallocate()
            sums.deallocate()
            acc.deallocate()
        }

        /// Takes the next source row (`plan.sourceWidth` RGBA8 pixels, straight alpha).
        func consume(_ row: UnsafeBufferPointer<UInt8>) {
            precondition(row.count == plan.sourceWidth * 4, "Row length differs from the plan's source width.")
            consume(row.baseAddress!)
        }

        /// `consume` for a row known to hold `plan.sourceWidth` pixels.
        fileprivate func consume(_ src: UnsafePointer<UInt8>) {
            precondition(nextRow < plan.sourceHeight, "More rows than the plan's source height.")
            let y = nextRow
            nextRow += 1
            let r = y / plan.boxY - plan.rowBase
            guard r >= 0 && r < plan.rowCount else { return }
            if plan.boxX == 1 && plan.boxY == 1 {
                plan.loadRow(src, into: sums)
            } else {
                let y0 = (r + plan.rowBase) * plan.boxY
                let y1 = min(y0 + plan.boxY, plan.sourceHeight)
                if y == y0 { sums.initialize(repeating: 0) }
                plan.accumulateRow(src, into: sums)
                guard y == y1 - 1 else { return }
                plan.averageBoxes(sums, rows: y1 - y0)
            }
            let rowLength = plan.horizontal.outputCount * 4
            plan.filterRow(sums, into: ring.baseAddress! + (r % ringRows) * rowLength)
            emitRows(through: r + plan.rowBase)
        }

        /// Filters every output row whose inputs end at or before reduced row `last`.
        private func emitRows(through last: Int) {
            let vertical = plan.vertical
            let rowLength = plan.horizontal.outputCount * 4
            let ringBase = UnsafePointer(ring.baseAddress!)
            output.withUnsafeMutableBufferPointer { out in
                vertical.weights.withUnsafeBufferPointer { weights in
                    while nextOutput < vertical.outputCount
                        && vertical.starts[nextOutput] + vertical.counts[nextOutput] - 1 <= last
                    {
                        let y = nextOutput
                        let start = vertical.starts[y]
                        let count = vertical.counts[y]
                        // The window's rows are the newest `count` ≤ ringRows: all still in the ring.
                        assert(last - start < ringRows)
                        acc.initialize(repeating: 0)
                        let w = weights.baseAddress! + y * vertical.stride
                        for t in 0..<count {
                            let wt = w[t]
                            let row = ringBase + ((start + t - plan.rowBase) % ringRows) * rowLength
                            // Row-major accumulate, as in verticalPass: LLVM vectorises this loop.
                            for i in 0..<rowLength { acc[i] += wt * row[i] }
                        }
                        plan.storeRow(acc, into: out.baseAddress! + y * rowLength)
                        nextOutput += 1
                    }
                }
            }
        }

        /// The resampled image, once every source row has been consumed.
        func finish() -> PixelBuffer {
            precondition(nextRow == plan.sourceHeight, "Not every source row was consumed.")
            precondition(nextOutput == plan.vertical.outputCount, "Output rows left unfiltered.")
            return PixelBuffer(width: plan.horizontal.outputCount, height: plan.vertical.outputCount, pixels: output)
        }
    }
}
