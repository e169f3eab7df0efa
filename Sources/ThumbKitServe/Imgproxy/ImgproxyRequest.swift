// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// One parsed imgproxy processing URL: where the image comes from and how to render it.
/// Made by `ImgproxyURLParser`; `identifier` names it for ETags and caches.
package struct ImgproxyRequest: Sendable, Hashable {
    /// imgproxy's resizing types (`rt:`).
    package enum ResizingType: String, Sendable, Hashable, CaseIterable {
        /// Fit inside the box, aspect kept (ThumbKit's `fit`).
        case fit
        /// Cover the box and crop (ThumbKit's `fill`).
        case fill
        /// `fill`, but never enlarging: a box larger than the source shrinks, keeping its aspect.
        case fillDown = "fill-down"
        /// Each axis to the box, aspect ignored (ThumbKit's `stretch`).
        case force
        /// `fill` when source and box have the same orientation, else `fit`.
        case auto
    }

    /// The image to render.
    package let source: ImgproxySource
    /// How the source maps onto the box.
    package let resizingType: ResizingType
    /// Box width in CSS pixels as written (before `dpr`); 0 means "from the source's aspect".
    package let width: Int
    /// Box height in CSS pixels as written (before `dpr`); 0 means "from the source's aspect".
    package let height: Int
    /// Device pixel ratio, > 0 and at most the limit: multiplies the box.
    package let dpr: Double
    /// Allow making the source larger (imgproxy's default: false).
    package let enlarge: Bool
    /// Pad to exactly the box with `background` when the result is smaller (imgproxy's `extend`).
    package let extend: Bool
    /// Which part `fill` keeps.
    package let gravity: ImgproxyGravity
    /// imgproxy's gravity offsets (pixels, or a fraction when below 1); 0 for `sm` and `fp`.
    package let gravityOffsetX: Double
    package let gravityOffsetY: Double
    /// 1...100, or nil for the format's default (`q:0` also means the default, as in imgproxy).
    package let quality: Int?
    /// The output format, or nil to negotiate it from `Accept` (`ImageFormatNegotiation`).
    package let format: ImageFormat?
    /// Opaque background for `extend` and for flattening alpha, or nil for the default.
    package let background: RGBA?

    package init(
        source: ImgproxySource, resizingType: ResizingType = .fit, width: Int = 0, height: Int = 0,
        dpr: Double = 1, enlarge: Bool = false, extend: Bool = false, gravity: ImgproxyGravity = .center,
        gravityOffsetX: Double = 0, gravityOffsetY: Double = 0, quality: Int? = nil, format: ImageFormat? = nil,
        background: RGBA? = nil
    ) {
        precondition(width >= 0 && height >= 0, "Width and height must be ≥ 0.")
        precondition(dpr > 0 && dpr.isFinite, "DPR must be positive.")
        precondition(quality.map { (1...100).contains($0) } ?? true, "Quality must be 1...100.")
        self.source = source
        self.resizingType = resizingType
        self.width = width
        self.height = height
        self.dpr = dpr
        self.enlarge = enlarge
        self.extend = extend
        self.gravity = gravity
        self.gravityOffsetX = gravityOffsetX
        self.gravityOffsetY = gravityOffsetY
        self.quality = quality
        self.format = format
        self.background = background
    }

    /// The box width in device pixels: `width × dpr`, rounded (0 stays 0, "auto").
    package var scaledWidth: Int { Self.scale(width, by: dpr) }
    /// The box height in device pixels: `height × dpr`, rounded (0 stays 0, "auto").
    package var scaledHeight: Int { Self.scale(height, by: dpr) }

    /// `n × factor` rounded to the nearest integer, at least 1 unless `n` is 0.
    static func scale(_ n: Int, by factor: Double) -> Int {
        n == 0 ? 0 : max(1, Int((Double(n) * factor).rounded()))
    }

    /// A stable key of everything that changes the output:
    /// `imgproxy/v1?rt=fill,w=300,h=400,el=0,ex=0,g=sm,gx=0,gy=0,q=auto,f=auto,bg=none|local:/a.jpg`.
    /// The box is in device pixels (`dpr` applied), so `w:200/dpr:2` and `w:400` share it. The same
    /// request written with aliases, in another option order, or with `@ext` instead of `f:` gives
    /// the same identifier. The source comes last, after `|`, so no path can forge another field.
    /// A change of format bumps `v1`.
    package var identifier: String {
        var s = "imgproxy/v1?rt=\(resizingType.rawValue),w=\(scaledWidth),h=\(scaledHeight)"
        s += ",el=\(enlarge ? 1 : 0),ex=\(extend ? 1 : 0),g=\(gravity.canonicalName)"
        s += ",gx=\(CanonicalDecimal.format(gravityOffsetX)),gy=\(CanonicalDecimal.format(gravityOffsetY))"
        s += ",q=\(quality.map(String.init) ?? "auto"),f=\(format?.rawValue ?? "auto")"
        s += ",bg=\(background.map { $0.hex } ?? "none")"
        return s + "|" + source.canonical
    }
}
