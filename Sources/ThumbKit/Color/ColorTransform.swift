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
/// `@unchecked Sendable`: the handle is only read after creation. Since lcms 2.3 each
/// `cmsDoTransform` call copies the transform's one-pixel cache to its own stack frame
/// (cmsxform.c, "Get copy of zero cache"), so one transform may run on several threads at once
/// without `cmsFLAGS_NOCACHE`; the handle is freed only in `deinit`, when no call can be running.
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    /// The pixel layout the transform reads.
    let layout: SourceLayout

    init(handle: cmsHTRANSFORM, layout: SourceLayout) {
        self.handle = handle
        self.layout = layout
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts 4-byte pixels in place to sRGB RGBA8.
    func apply(_ pixels: inout [UInt8]) {
        precondition(pixels.count % 4 == 0, "Colour transforms work on 4-byte pixels.")
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
