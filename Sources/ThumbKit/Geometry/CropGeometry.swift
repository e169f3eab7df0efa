// SPDX-License-Identifier: Apache-2.0
/// A rectangle in source pixel coordinates, with fractional edges.
public struct SourceRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle in an image reduced by `factor` (0 < factor ≤ 1), for example a JPEG
    /// decoded at DCT scale n/8: every coordinate is multiplied by the factor.
    public func scaled(by factor: Double) -> SourceRect {
        SourceRect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }
}

/// Where the pixels go: which part of the source is resampled to which output size, and where
/// that output sits on the final canvas (only `pad` has a canvas larger than the output).
public struct CropGeometry: Sendable, Hashable {
    /// The part of the source that becomes the output (may have fractional edges).
    public var sourceRect: SourceRect
    /// The resampled image's size.
    public var outputWidth: Int
    public var outputHeight: Int
    /// The final image's size: equals the output size except for `pad`.
    public var canvasWidth: Int
    public var canvasHeight: Int
    /// Top-left of the output on the canvas (0, 0 except for `pad`).
    public var offsetX: Int
    public var offsetY: Int

    public init(
        sourceRect: SourceRect, outputWidth: Int, outputHeight: Int,
        canvasWidth: Int? = nil, canvasHeight: Int? = nil, offsetX: Int = 0, offsetY: Int = 0
    ) {
        self.sourceRect = sourceRect
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.canvasWidth = canvasWidth ?? outputWidth
        self.canvasHeight = canvasHeight ?? outputHeight
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// Plans how a `sourceWidth` × `sourceHeight` image maps onto `options`' box.
    ///
    /// - `fill`: the geometry of UIKit's `imageByScalingAndCroppingForSize:`. The scale is
    ///   max(tw/w, th/h); the scaled image is centred on the target canvas and the canvas bounds
    ///   crop it. The crop rectangle keeps its fractional offset (it is never rounded to whole
    ///   pixels: the resampler honours it). Without upscaling, a source smaller than the box
    ///   keeps scale 1 and is cropped to at most the box. `options.gravity` (in stored space
    ///   here) moves the window along each overflowing axis: see ``fillOffset(scaled:output:anchor:)``;
    ///   its shift then moves it by whole output pixels (``shiftedOrigin(_:by:scaled:output:)``).
    ///   `.smart` needs pixels and is planned centred here; `ImageProcessors.Resize` resolves it
    ///   to a point first (``SmartCrop``).
    /// - `fit`: scale min(tw/w, th/h), each side rounded to the nearest pixel (at least 1).
    /// - `pad`: `fit`, centred on a canvas of exactly the box (offsets rounded down).
    /// - `stretch`: each axis scaled to the box.
    public static func plan(sourceWidth w: Int, sourceHeight h: Int, options: ResizeOptions) -> CropGeometry {
        precondition(w > 0 && h > 0, "Source size must be positive.")
        let sw = Double(w)
        let sh = Double(h)
        let tw = options.width
        let th = options.height
        switch options.mode {
        case .fill:
            let widthFactor = Double(tw) / sw
            let heightFactor = Double(th) / sh
            var scale = max(widthFactor, heightFactor)
            var outW = tw
            var outH = th
            if scale > 1 && !options.upscale {
                scale = 1
                outW = min(tw, w)
                outH = min(th, h)
            }
            // Centred, the scaled image's origin sits at ((canvas - scaled) / 2) in output
            // pixels; a gravity picks another fraction than 1/2 of the overflow. Map the canvas
            // back to source pixels.
            let scaledW = sw * scale
            let scaledH = sh * scale
            let anchor = options.gravity.anchor ?? (0.5, 0.5)
            var originX = (Double(outW) - scaledW) * Self.fillOffset(scaled: scaledW, output: outW, anchor: anchor.x)
            var originY = (Double(outH) - scaledH) * Self.fillOffset(scaled: scaledH, output: outH, anchor: anchor.y)
            let shift = options.gravity.shift
            if shift.x != 0 { originX = Self.shiftedOrigin(originX, by: shift.x, scaled: scaledW, output: outW) }
            if shift.y != 0 { originY = Self.shiftedOrigin(originY, by: shift.y, scaled: scaledH, output: outH) }
            let rect = SourceRect(
                x: -originX / scale, y: -originY / scale,
                width: Double(outW) / scale, height: Double(outH) / scale)
            return CropGeometry(sourceRect: rect, outputWidth: outW, outputHeight: outH)
        case .fit, .pad:
            var scale = min(Double(tw) / sw, Double(th) / sh)
            if scale > 1 && !options.upscale { scale = 1 }
            // sw * scale ≤ tw, so rounding never leaves the box (the clamp keeps a box near
            // Int.max, whose Double rounds up to 2^63, from trapping).
            let outW = max(1, min(tw, Self.roundedPixels(sw * scale)))
            let outH = max(1, min(th, Self.roundedPixels(sh * scale)))
            let rect = SourceRect(x: 0, y: 0, width: sw, height: sh)
            if options.mode == .fit {
                return CropGeometry(sourceRect: rect, outputWidth: outW, outputHeight: outH)
            }
            let canvasW = max(tw, outW)
            let canvasH = max(th, outH)
            return CropGeometry(
                sourceRect: rect, outputWidth: outW, outputHeight: outH,
                canvasWidth: canvasW, canvasHeight: canvasH,
                offsetX: (canvasW - outW) / 2, offsetY: (canvasH - outH) / 2)
        case .stretch:
            var outW = tw
            var outH = th
            if !options.upscale {
                outW = min(tw, w)
                outH = min(th, h)
            }
            return CropGeometry(
                sourceRect: SourceRect(x: 0, y: 0, width: sw, height: sh), outputWidth: outW, outputHeight: outH)
        }
    }

    /// Which fraction of an axis's overflow (scaled length − output length) lies before the
    /// window: the window of `output` pixels is centred on `anchor` × `scaled` and moved back
    /// inside 0...`scaled`. A centred anchor (1/2) gives exactly 1/2, the UIKit centre crop;
    /// 0 and 1 pin the window to the start or the end exactly (offset 0, or the whole overflow).
    static func fillOffset(scaled: Double, output: Int, anchor: Double) -> Double {
        if anchor == 0.5 { return 0.5 }
        let overflow = scaled - Double(output)
        guard overflow > 0 else { return 0.5 }  // nothing to move: keep the centred origin
        let start = anchor * scaled - Double(output) * 0.5
        return min(max(start / overflow, 0), 1)
    }

    /// The scaled image's origin (≤ 0, in output pixels) once the window has moved `shift`
    /// output pixels further along the axis, kept so that the window stays inside the image
    /// (origin within `output − scaled`...0). An axis with no overflow does not move.
    static func shiftedOrigin(_ origin: Double, by shift: Int, scaled: Double, output: Int) -> Double {
        let lowest = Double(output) - scaled
        guard lowest < 0 else { return origin }
        return min(0, max(lowest, origin - Double(shift)))
    }

    /// `value` rounded to whole pixels, saturating at `Int.max` instead of trapping.
    static func roundedPixels(_ value: Double) -> Int {
        let rounded = value.rounded()
        return rounded < 0x1p63 ? Int(rounded) : Int.max
    }

    /// The scale the output needs from the source on each axis (output pixels per source pixel).
    public var requiredScale: (x: Double, y: Double) {
        (Double(outputWidth) / sourceRect.width, Double(outputHeight) / sourceRect.height)
    }
}
