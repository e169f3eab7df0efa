// SPDX-License-Identifier: Apache-2.0
extension PixelBuffer {
    /// The image as it should be displayed for an EXIF `orientation` (a pure pixel permutation).
    public func applying(_ orientation: ExifOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let w = width
        let h = height
        let outW = orientation.swapsAxes ? h : w
        let outH = orientation.swapsAxes ? w : h
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBytes { srcRaw in
            out.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.bindMemory(to: UInt32.self)
                let dst = dstRaw.bindMemory(to: UInt32.self)
                for y in 0..<outH {
                    for x in 0..<outW {
                        // (sx, sy): the stored pixel shown at display (x, y).
                        let sx: Int
                        let sy: Int
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        dst[y * outW + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return PixelBuffer(width: outW, height: outH, pixels: out)
    }
}
