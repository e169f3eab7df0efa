// SPDX-License-Identifier: Apache-2.0

/// PNG's five row filters undone in place (PNG specification, section 9), and the widening of
/// an unfiltered 8-bit row to RGBA8 as libpng's expand, gray-to-RGB and add-alpha transforms do
/// it. Three and four bytes a pixel go through `SIMD4<Int16>` a pixel at a time (Sub, Average
/// and Paeth depend on the pixel to the left); one and two bytes a pixel are scalar.
enum PNGUnfilter {
    /// Undoes `filter` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) on the `count` bytes at `row`,
    /// whose unfiltered previous row is `above` (all zeros for the first row).
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, count: Int, above: UnsafePointer<UInt8>, filter: UInt8,
        bytesPerPixel bpp: Int
    ) {
        switch (filter, bpp) {
        case (1, _):
            for i in bpp..<max(bpp, count) { row[i] &+= row[i - bpp] }
        case (2, _):
            for i in 0..<count { row[i] &+= above[i] }
        case (3, 4): vectorAverageOrPaeth(row, count: count, above: above, paeth: false, bpp: 4)
        case (4, 4): vectorAverageOrPaeth(row, count: count, above: above, paeth: true, bpp: 4)
        case (3, 3): vectorAverageOrPaeth(row, count: count, above: above, paeth: false, bpp: 3)
        case (4, 3): vectorAverageOrPaeth(row, count: count, above: above, paeth: true, bpp: 3)
        case (3, _), (4, _):
            scalarAverageOrPaeth(row, count: count, above: above, paeth: filter == 4, bpp: bpp)
        default:
            return
        }
    }

    /// Average or Paeth, one byte at a time.
    private static func scalarAverageOrPaeth(
        _ row: UnsafeMutablePointer<UInt8>, count: Int, above: UnsafePointer<UInt8>, paeth: Bool, bpp: Int
    ) {
        for i in 0..<count {
            let a = i >= bpp ? Int(row[i - bpp]) : 0
            let b = Int(above[i])
            let c = i >= bpp ? Int(above[i - bpp]) : 0
            let predicted: Int
            if paeth {
                let pa = abs(b - c)
                let pb = abs(a - c)
                let pc = abs(a + b - 2 * c)
                predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            } else {
                predicted = (a + b) >> 1
            }
            row[i] &+= UInt8(truncatingIfNeeded: predicted)
        }
    }

    /// Average or Paeth for 3 or 4 bytes a pixel: one pixel's bytes as the lanes of a vector.
    /// Always inlined, so each caller's constant `paeth` and `bpp` give a loop of their own.
    @inline(__always)
    private static func vectorAverageOrPaeth(
        _ row: UnsafeMutablePointer<UInt8>, count: Int, above: UnsafePointer<UInt8>, paeth: Bool, bpp: Int
    ) {
        var a = SIMD4<Int16>(repeating: 0)  // the unfiltered pixel to the left
        var c = SIMD4<Int16>(repeating: 0)  // the pixel above that one
        var i = 0
        while i + bpp <= count {
            let b = load(above + i, bpp)
            let x = load(UnsafePointer(row + i), bpp)
            let predicted: SIMD4<Int16>
            if paeth {
                let pa = absolute(b &- c)
                let pb = absolute(a &- c)
                let pc = absolute(a &+ b &- c &- c)
                var p = c
                p.replace(with: b, where: pb .<= pc)
                p.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
                predicted = p
            } else {
                predicted = (a &+ b) &>> 1
            }
            let value = (x &+ predicted) & 0xFF
            store(value, row + i, bpp)
            a = value
            c = b
            i += bpp
        }
    }

    @inline(__always)
    private static func absolute(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
        v.replacing(with: 0 &- v, where: v .< 0)
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>, _ bpp: Int) -> SIMD4<Int16> {
        if bpp == 4 {
            return SIMD4<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self))
        }
        return SIMD4<Int16>(Int16(p[0]), Int16(p[1]), Int16(p[2]), 0)
    }

    @inline(__always)
    private static func store(_ v: SIMD4<Int16>, _ p: UnsafeMutablePointer<UInt8>, _ bpp: Int) {
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: v)
        if bpp == 4 {
            UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        } else {
            p[0] = bytes[0]
            p[1] = bytes[1]
            p[2] = bytes[2]
        }
    }

    /// Writes `width` pixels of `channels` bytes (gray, gray+alpha, RGB or RGBA) from `src` to
    /// `dst` as RGBA8: gray copied to red, green and blue; a missing alpha is 255.
    static func widenToRGBA(
        _ src: UnsafePointer<UInt8>, channels: Int, width: Int, into dst: UnsafeMutablePointer<UInt8>
    ) {
        switch channels {
        case 4:
            dst.update(from: src, count: width * 4)
        case 3:
            for x in 0..<width {
                dst[4 * x] = src[3 * x]
                dst[4 * x + 1] = src[3 * x + 1]
                dst[4 * x + 2] = src[3 * x + 2]
                dst[4 * x + 3] = 255
            }
        case 2:
            for x in 0..<width {
                let g = src[2 * x]
                dst[4 * x] = g
                dst[4 * x + 1] = g
                dst[4 * x + 2] = g
                dst[4 * x + 3] = src[2 * x + 1]
            }
        default:
            for x in 0..<width {
                let g = src[x]
                dst[4 * x] = g
                dst[4 * x + 1] = g
                dst[4 * x + 2] = g
                dst[4 * x + 3] = 255
            }
        }
    }
}
