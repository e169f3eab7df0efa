// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// Where a tool cuts a fill box out of the scaled picture, which decides the reference its
/// outputs are scored against: a half-pixel shift of the crop is geometry, not a loss of
/// quality, so each tool is scored against a reference cut its own way, and the distance
/// between its crop and ThumbKit's exact one is reported on its own, in output pixels.
package enum BenchCropGeometry: String, Sendable, Hashable, Codable {
    /// The exact centre crop with fractional edges (UIKit's `imageByScalingAndCroppingForSize:`
    /// geometry): ThumbKit, and Pillow's `ImageOps.fit` (a float `box`).
    case fractional
    /// The picture scaled to whole pixels (the covering side equal to the box, the other
    /// rounded), then cut at a whole-pixel offset, `⌊(scaled − box) / 2⌋`: vipsthumbnail's
    /// centre crop, ImageMagick's and GraphicsMagick's `-gravity center -extent`.
    case wholePixel = "whole-pixel"

    /// The crop of `options` on a `width`×`height` picture. Fit and stretch boxes have no crop,
    /// so both geometries plan them alike.
    package func plan(sourceWidth width: Int, sourceHeight height: Int, options: ResizeOptions) -> CropGeometry {
        let exact = CropGeometry.plan(sourceWidth: width, sourceHeight: height, options: options)
        guard self == .wholePixel, options.mode == .fill else { return exact }
        func axis(source: Int, output: Int, exactSpan: Double) -> (origin: Double, span: Double) {
            // The exact plan scales this axis by output / exactSpan; a tool rounds the scaled side.
            let scaled = max(output, Int((Double(source) * Double(output) / exactSpan).rounded()))
            let offset = (scaled - output) / 2
            let perPixel = Double(source) / Double(scaled)
            return (Double(offset) * perPixel, Double(output) * perPixel)
        }
        let x = axis(source: width, output: exact.outputWidth, exactSpan: exact.sourceRect.width)
        let y = axis(source: height, output: exact.outputHeight, exactSpan: exact.sourceRect.height)
        var planned = exact
        planned.sourceRect = SourceRect(x: x.origin, y: y.origin, width: x.span, height: y.span)
        return planned
    }

    /// How far the centre of this geometry's crop lies from the exact crop's, in output pixels
    /// (the larger of the two axes; 0 for the exact crop itself).
    package func centringOffset(sourceWidth width: Int, sourceHeight height: Int, options: ResizeOptions) -> Double {
        let exact = CropGeometry.plan(sourceWidth: width, sourceHeight: height, options: options).sourceRect
        let own = plan(sourceWidth: width, sourceHeight: height, options: options)
        let rect = own.sourceRect
        // Centres in source pixels, converted with this crop's own step (source px per output px).
        let dx = ((rect.x + rect.width / 2) - (exact.x + exact.width / 2)) / (rect.width / Double(own.outputWidth))
        let dy = ((rect.y + rect.height / 2) - (exact.y + exact.height / 2)) / (rect.height / Double(own.outputHeight))
        return max(abs(dx), abs(dy))
    }
}

extension BenchTool {
    /// How the tool crops a fill box (what its outputs are scored against).
    package var cropGeometry: BenchCropGeometry {
        switch self {
        case .thumbkit, .pillow, .decodeFloor, .djpegFloor: return .fractional
        case .vipsthumbnail, .imagemagick, .imagemagickHint, .graphicsmagick: return .wholePixel
        }
    }
}

extension BenchPeer {
    /// How this peer crops a fill box: its tool's ``BenchTool/cropGeometry``.
    package var cropGeometry: BenchCropGeometry { tool.cropGeometry }
}
