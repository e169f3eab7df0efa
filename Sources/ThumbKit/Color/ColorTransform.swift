// SPDX-License-Identifier: Apache-2.0
import CLCMS2

/// How the decoded pixels a transform reads are laid out (every layout is 4 bytes a pixel, so
/// transforms run in place).
enum SourceLayout: Hashable, Sendable {
    /// RGBA8 with straight alpha; the alpha byte is left as it is.
    case rgba
    /// Gray in the R byte of an RGBA8 pixel (R = G = B); alpha is left as it is.
    case grayInRGBA
    /// CMYK, 0 = no ink.
    case cmyk
    /// CMYK stored as 255 − ink (Adobe APP14 files).
    case cmykInverted

    /// The lcms input format.
    var lcmsFormat: UInt32 {
        switch self {
        case .rgba: return LittleCMS.rgba8
        case .grayInRGBA: return LittleCMS.grayInRGBA8
        case .cmyk: return LittleCMS.cmyk8
        case .cmykInverted: return LittleCMS.cmyk8Inverted
        }
    }

    /// CMYK input leaves K in the fourth byte; the output needs alpha 255 there.
    var setsOpaqueAlpha: Bool { self == .cmyk || self == .cmykInverted }
}

/// A Little CMS transform from one source profile (in one layout) to sRGB RGBA8.
///
/// Gray sources become a 256-entry table, filled once by an unoptimised (full-precision) lcms
/// transform: lcms's optimised 8-bit gray path samples the curve on a coarse grid, which is off
/// by up to ten levels near black for a linear gray profile.
///
/// `@unchecked Sendable`: the handle is only read after creation. Since lcms 2.3 each
/// `cmsDoTransform` call copies the transform's one-pixel cache to its own stack frame
/// (cmsxform.c, "Get copy of zero cache"), so one transform may run on several threads at once
/// without `cmsFLAGS_NOCACHE`; the handle is freed only in `deinit`, when no call can be running.
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM?
    /// For gray sources: R, G, B for each of the 256 gray levels.
    private let grayTable: [UInt8]?
    /// The pixel layout the transform reads.
    let layout: SourceLayout

    /// Wraps an lcms transform whose input format matches `layout` (not `.grayInRGBA`).
    init(handle: cmsHTRANSFORM, layout: SourceLayout) {
        precondition(layout != .grayInRGBA, "Gray transforms are tables.")
        self.handle = handle
        self.grayTable = nil
        self.layout = layout
    }

    /// Fills a gray table through `handle` (input: gray in RGBA), which the caller then deletes.
    init(grayThrough handle: cmsHTRANSFORM) {
        var ramp = [UInt8](repeating: 255, count: 256 * 4)
        for v in 0..<256 { ramp[v * 4] = UInt8(v) }
        ramp.withUnsafeMutableBytes { cmsDoTransform(handle, $0.baseAddress, $0.baseAddress, 256) }
        var table = [UInt8](repeating: 0, count: 256 * 3)
        for v in 0..<256 {
            table[v * 3] = ramp[v * 4]
            table[v * 3 + 1] = ramp[v * 4 + 1]
            table[v * 3 + 2] = ramp[v * 4 + 2]
        }
        self.handle = nil
        self.grayTable = table
        self.layout = .grayInRGBA
    }

    deinit { if let handle { cmsDeleteTransform(handle) } }

    /// Converts 4-byte pixels in place to sRGB RGBA8.
    func apply(_ pixels: inout [UInt8]) {
        precondition(pixels.count % 4 == 0, "Colour transforms work on 4-byte pixels.")
        if let grayTable {
            var i = 0
            while i < pixels.count {
                let t = Int(pixels[i]) * 3
                pixels[i] = grayTable[t]
                pixels[i + 1] = grayTable[t + 1]
                pixels[i + 2] = grayTable[t + 2]
                i += 4
            }
            return
        }
        guard let handle else { return }
        let total = pixels.count / 4
        pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            // cmsDoTransform counts pixels in 32 bits; go in slices well below that.
            let slice = 1 << 24
            var start = 0
            while start < total {
                let n = min(slice, total - start)
                let p = base + start * 4
                cmsDoTransform(handle, p, p, UInt32(n))
                start += n
            }
        }
        if layout.setsOpaqueAlpha {
            var i = 3
            while i < pixels.count {
                pixels[i] = 255
                i += 4
            }
        }
    }
}
