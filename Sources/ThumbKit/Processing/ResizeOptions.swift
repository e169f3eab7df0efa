// SPDX-License-Identifier: Apache-2.0
/// How a source maps onto a target box.
public enum ResizeMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Scale to cover the box, then crop the overflow around the centre: always exactly the box.
    /// The geometry of UIKit's `imageByScalingAndCroppingForSize:`.
    case fill
    /// Scale to fit inside the box, aspect kept: one side equals the box, the other is smaller.
    case fit
    /// `fit`, then centred on `background` to exactly the box.
    case pad
    /// Scale each axis independently to exactly the box.
    case stretch
}

/// The resampling filter.
public enum ResampleKernel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nearest-area average (support 0.5).
    case box
    /// Linear interpolation (support 1).
    case triangle
    /// Catmull-Rom cubic, B = 0, C = 0.5 (support 2).
    case catmullRom = "catmull-rom"
    /// Mitchell-Netravali cubic, B = C = 1/3 (support 2).
    case mitchell
    /// Lanczos windowed sinc with 3 lobes (support 3); the default.
    case lanczos3
}

/// Every option that decides how an image is resized. A value type with a stable `identifier`
/// that keys outputs (as Nuke keys its caches): change any option and the identifier changes.
public struct ResizeOptions: Sendable, Hashable, Codable {
    /// Target box width in pixels (≥ 1).
    public let width: Int
    /// Target box height in pixels (≥ 1).
    public let height: Int
    /// How the source maps onto the box.
    public let mode: ResizeMode
    /// The resampling filter.
    public let kernel: ResampleKernel
    /// Allow making a source larger than it is (default true); false is vipsthumbnail's `>`.
    public let upscale: Bool
    /// Resample in linear light (sRGB → linear → resample → sRGB).
    public let linearLight: Bool
    /// Canvas colour for `pad`.
    public let background: RGBA

    public init(
        width: Int, height: Int, mode: ResizeMode = .fill, kernel: ResampleKernel = .lanczos3,
        upscale: Bool = true, linearLight: Bool = false, background: RGBA = .white
    ) {
        precondition(width > 0 && height > 0, "Target size must be positive.")
        self.width = width
        self.height = height
        self.mode = mode
        self.kernel = kernel
        self.upscale = upscale
        self.linearLight = linearLight
        self.background = background
    }

    /// The same options for a box `factor` times larger (for @2x / @3x outputs).
    public func scaled(by factor: Int) -> ResizeOptions {
        ResizeOptions(
            width: width * factor, height: height * factor, mode: mode, kernel: kernel,
            upscale: upscale, linearLight: linearLight, background: background)
    }

    /// `resize/v1?w=88,h=88,mode=fill,kernel=lanczos3,up=1,linear=0` (plus `,bg=#rrggbbaa` for pad).
    /// Stable across releases: a change of format bumps `v1`.
    public var identifier: String {
        var s = "resize/v1?w=\(width),h=\(height),mode=\(mode.rawValue),kernel=\(kernel.rawValue)"
        s += ",up=\(upscale ? 1 : 0),linear=\(linearLight ? 1 : 0)"
        if mode == .pad { s += ",bg=\(background.hex)" }
        return s
    }
}
