// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Separable, premultiplied-alpha resampling of a region of a `PixelBuffer`.
///
/// The pipeline for one image:
/// 1. An integer box pre-shrink when the reduction is large (the "reducing gap" rule of
///    libvips and Pillow): each axis is first averaged by `k = ⌊step / 2⌋` so that the filter
///    still works on at least a 2× reduction, keeping its quality while touching each source
///    pixel once.
/// 2. The horizontal pass over only the source rows and columns the output needs, converting
///    each row to premultiplied Float working values on the fly (in linear light if asked).
/// 3. The vertical pass, then un-premultiply and round to 8 bits.
///
/// The crop rectangle keeps its fractional edges: output pixel `i` samples the source at
/// `rect.x + (i + 0.5) * rect.width / width`, never rounded to whole pixels.
/// Results do not depend on `threads`: rows are split between threads, but each value is
/// computed by the same arithmetic in the same order.
enum Resampler {
    /// The filter always runs on at least this reduction after the box pre-shrink.
    static let reducingGap = 2.0

    /// Rows handled by one unit of parallel work.
    static let rowsPerChunk = 16

    /// The box pre-shrink factor for one axis.
    static func boxFactor(step: Double, inputCount: Int) -> Int {
        min(max(1, Int((step / reducingGap).rounded(.down))), inputCount)
    }

    /// Resamples `rect` of `source` to `width` × `height`.
    ///
    /// - Parameter deadline: checked before each chunk of rows; once it has passed the remaining
    ///   rows are skipped and the result is blank, so a caller with a deadline must check
    ///   `deadline.hasPassed` afterwards and discard the image (it then stays passed).
    static func resample(
        _ source: PixelBuffer, rect: SourceRect, width: Int, height: Int,
        kernel: ResampleKernel, linearLight: Bool, threads: Int = 1,
        deadline: Deadline = .never
    ) -> PixelBuffer {
        plan(
            sourceWidth: source.width, sourceHeight: source.height, rect: rect, width: width, height: height,
            kernel: kernel, linearLight: linearLight, threads: threads, deadline: deadline
        ).run(source)
    }

    /// The plan for resampling `rect` of a `sourceWidth` × `sourceHeight` image to `width` ×
    /// `height`: run it on a whole buffer (`run`) or feed it rows as they are decoded (`RowSink`).
    static func plan(
        sourceWidth: Int, sourceHeight: Int, rect: SourceRect, width: Int, height: Int,
        kernel: ResampleKernel, linearLight: Bool, threads: Int = 1, deadline: Deadline = .never
    ) -> Plan {
        precondition(width > 0 && height > 0, "Output size must be positive.")
        precondition(sourceWidth > 0 && sourceHeight > 0, "Source size must be positive.")
        precondition(rect.width > 0 && rect.height > 0, "Source rectangle must not be empty.")
        let kx = boxFactor(step: rect.width / Double(width), inputCount: sourceWidth)
        let ky = boxFactor(step: rect.height / Double(height), inputCount: sourceHeight)
        let reducedWidth = (sourceWidth + kx - 1) / kx
        let reducedHeight = (sourceHeight + ky - 1) / ky
        let horizontal = ResampleWeights(
            kernel: kernel, inputCount: reducedWidth, origin: rect.x / Double(kx),
            span: rect.width / Double(kx), outputCount: width)
        let vertical = ResampleWeights(
            kernel: kernel, inputCount: reducedHeight, origin: rect.y / Double(ky),
            span: rect.height / Double(ky), outputCount: height)
        return Plan(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, boxX: kx, boxY: ky,
            horizontal: horizontal, vertical: vertical,
            transfer: linearLight ? .linear : .gamma, threads: max(1, threads), deadline: deadline)
    }

    /// Everything the hot loops need, computed once per image.
    struct Plan: Sendable {
        /// The size of the source the plan was made for.
        let sourceWidth: Int
        let sourceHeight: Int
        let boxX: Int
        let boxY: Int
        let horizontal: ResampleWeights
        let vertical: ResampleWeights
        let transfer: ColorTransfer
        let threads: Int
        /// Chunks of rows not yet started when it passes are skipped.
        var deadline: Deadline = .never

        /// Runs `body(chunk)` for chunk in 0..<count, in parallel when worthwhile.
        func forEachChunk(_ count: Int, _ body: @Sendable (Int) -> Void) {
            if threads == 1 || count == 1 {
                for i in 0..<count { body(i) }
            } else {
                DispatchQueue.concurrentPerform(iterations: count, execute: body)
            }
        }
    }
}
