// SPDX-License-Identifier: Apache-2.0
import ThumbKit

extension ImgproxyRequest {
    /// The engine's resize for a source of the given size, with imgproxy's meaning of each
    /// resizing type, and `gravity` as the engine's ``Gravity`` (it only moves a fill's window),
    /// shifted by the gravity offsets as imgproxy shifts it (``engineGravity(boxWidth:boxHeight:sourceWidth:sourceHeight:)``):
    /// - no width and no height: the source's own size, not enlarged;
    /// - one side 0 ("auto"): that side follows the source's aspect (`fit` to the other side);
    /// - `auto`: `fill` when source and box are both landscape (or square) or both portrait, else `fit`;
    /// - `force`: ThumbKit's `stretch`; a 0 side keeps the source's length;
    /// - `fill-down` without `enlarge`: `fill`, but a box larger than the source shrinks, keeping
    ///   its aspect, to the largest such box inside the source (300×300 from 200×100 is 100×100);
    /// - `fit` with `extend` (both sides given): ThumbKit's `pad` onto `background` (transparent when none).
    /// Without `enlarge` the engine never upscales (`upscale: false`), and for `force` the box
    /// itself is shrunk so that neither axis is enlarged, keeping the box's aspect, as imgproxy does.
    package func resizeOptions(sourceWidth: Int, sourceHeight: Int) -> ResizeOptions {
        precondition(sourceWidth > 0 && sourceHeight > 0, "The source size must be positive.")
        let w = scaledWidth
        let h = scaledHeight
        let padColour = background ?? .transparent
        func options(_ width: Int, _ height: Int, _ mode: ResizeMode) -> ResizeOptions {
            let boxW = max(1, width)
            let boxH = max(1, height)
            let fillGravity =
                mode == .fill
                ? engineGravity(boxWidth: boxW, boxHeight: boxH, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
                : gravity.engineGravity
            return ResizeOptions(
                width: boxW, height: boxH, mode: mode, upscale: enlarge, background: padColour, gravity: fillGravity)
        }
        if w == 0 && h == 0 { return options(sourceWidth, sourceHeight, .fit) }

        var type = resizingType
        if type == .auto {
            let boxW = w == 0 ? sourceWidth : w
            let boxH = h == 0 ? sourceHeight : h
            type = (sourceWidth >= sourceHeight) == (boxW >= boxH) ? .fill : .fit
        }
        switch type {
        case .force:
            var boxW = Double(w == 0 ? sourceWidth : w)
            var boxH = Double(h == 0 ? sourceHeight : h)
            let enlargement = max(boxW / Double(sourceWidth), boxH / Double(sourceHeight))
            if !enlarge && enlargement > 1 {
                boxW /= enlargement
                boxH /= enlargement
            }
            return options(Int(boxW.rounded()), Int(boxH.rounded()), .stretch)
        case _ where w == 0 || h == 0:
            // One side from the source's aspect: every mode gives the same box.
            let factor = w == 0 ? Double(h) / Double(sourceHeight) : Double(w) / Double(sourceWidth)
            let applied = enlarge ? factor : min(factor, 1)
            let boxW = Int((Double(sourceWidth) * applied).rounded())
            return options(boxW, Int((Double(sourceHeight) * applied).rounded()), .fit)
        case .fillDown where !enlarge:
            let shrink = min(1, Double(sourceWidth) / Double(w), Double(sourceHeight) / Double(h))
            return options(Int((Double(w) * shrink).rounded()), Int((Double(h) * shrink).rounded()), .fill)
        case .fill, .fillDown:
            return options(w, h, .fill)
        case .fit, .auto:
            return options(w, h, extend ? .pad : .fit)
        }
    }

    /// `gravity` as the engine's, moved by imgproxy's offsets for a fill of `boxWidth` ×
    /// `boxHeight` (device pixels) from a `sourceWidth` × `sourceHeight` source.
    ///
    /// As in imgproxy: an offset of magnitude 1 or more is pixels (times `dpr`); one below 1 is
    /// a fraction of the scaled image's side. It moves the window away from the edge its
    /// gravity pins (inwards: `so:0:10` moves up, `no:0:10` down), and right or down along an
    /// axis the gravity centres. The window then stays inside the image. `sm` and `fp` take no
    /// offsets.
    package func engineGravity(boxWidth: Int, boxHeight: Int, sourceWidth: Int, sourceHeight: Int) -> Gravity {
        let base = gravity.engineGravity
        guard gravityOffsetX != 0 || gravityOffsetY != 0 else { return base }
        var scale = max(Double(boxWidth) / Double(sourceWidth), Double(boxHeight) / Double(sourceHeight))
        if !enlarge { scale = min(scale, 1) }
        func pixels(_ offset: Double, side: Int) -> Int {
            let value = offset.magnitude >= 1 ? offset * dpr : offset * Double(side) * scale
            let bound = Double(Gravity.maxShift)
            return Int(min(bound, max(-bound, value)).rounded(.toNearestOrEven))
        }
        let x = pixels(gravityOffsetX, side: sourceWidth)
        let y = pixels(gravityOffsetY, side: sourceHeight)
        let pinsEast = [.east, .northEast, .southEast].contains(gravity)
        let pinsSouth = [.south, .southEast, .southWest].contains(gravity)
        return base.shifted(x: pinsEast ? -x : x, y: pinsSouth ? -y : y)
    }
}
