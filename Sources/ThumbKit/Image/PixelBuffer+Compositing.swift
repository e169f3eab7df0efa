// SPDX-License-Identifier: Apache-2.0
extension PixelBuffer {
    /// This image drawn with Porter-Duff "over" onto a `canvasWidth` × `canvasHeight` canvas of
    /// `background`, its top-left at (`x`, `y`); parts outside the canvas are clipped.
    public func placed(
        onCanvasWidth canvasWidth: Int, height canvasHeight: Int, background: RGBA, x: Int, y: Int
    ) -> PixelBuffer {
        var canvas = PixelBuffer(width: canvasWidth, height: canvasHeight, fill: background)
        canvas.draw(self, x: x, y: y)
        return canvas
    }

    /// Draws `image` over this one with straight-alpha Porter-Duff "over" (computed as
    /// premultiplied, rounded once), its top-left at (`x`, `y`), clipped to this image.
    public mutating func draw(_ image: PixelBuffer, x: Int, y: Int) {
        let x0 = max(0, x)
        let y0 = max(0, y)
        let x1 = min(width, x + image.width)
        let y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let dstWidth = width
        image.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in y0..<y1 {
                    for col in x0..<x1 {
                        let s = ((row - y) * image.width + (col - x)) * 4
                        let d = (row * dstWidth + col) * 4
                        Self.over(src, s, onto: dst, d)
                    }
                }
            }
        }
    }

    /// The image flattened onto an opaque `background` (every pixel becomes opaque).
    public func flattened(onto background: RGBA) -> PixelBuffer {
        if !hasTransparency { return self }
        var bg = background
        bg.a = 255
        return placed(onCanvasWidth: width, height: height, background: bg, x: 0, y: 0)
    }

    /// Straight-alpha "over" of one source pixel onto one destination pixel.
    @inline(__always)
    private static func over(
        _ src: UnsafeBufferPointer<UInt8>, _ s: Int, onto dst: UnsafeMutableBufferPointer<UInt8>, _ d: Int
    ) {
        let sa = Int(src[s + 3])
        if sa == 255 {
            dst[d] = src[s]
            dst[d + 1] = src[s + 1]
            dst[d + 2] = src[s + 2]
            dst[d + 3] = 255
            return
        }
        if sa == 0 { return }
        let da = Int(dst[d + 3])
        // In units of 255²: outA = sa·255 + da·(255 − sa).
        let outA = sa * 255 + da * (255 - sa)
        for c in 0..<3 {
            let premul = Int(src[s + c]) * sa * 255 + Int(dst[d + c]) * da * (255 - sa)
            dst[d + c] = UInt8((premul + outA / 2) / outA)
        }
        dst[d + 3] = UInt8((outA + 127) / 255)
    }
}
