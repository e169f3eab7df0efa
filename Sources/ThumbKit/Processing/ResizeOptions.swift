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
    /// Which part of the source `fill` keeps (default `.centre`); `fit`, `pad` and `stretch`
    /// ignore it, and so do their identifiers.
    public let gravity: Gravity

    public init(
        width: Int, height: Int, mode: ResizeMode = .fill, kernel: ResampleKernel = .lanczos3,
        upscale: Bool = true, linearLight: Bool = false, background: RGBA = .white, gravity: Gravity = .centre
    ) {
        precondition(width > 0 && height > 0, "Target size must be positive.")
        self.width = width
        self.height = height
        self.mode = mode
        self.kernel = kernel
        self.upscale = upscale
        self.linearLight = linearLight
        self.background = background
        self.gravity = gravity
    }

    /// The same options for a box `factor` times larger (for @2x / @3x outputs).
    public func scaled(by factor: Int) -> ResizeOptions {
        ResizeOptions(
            width: width * factor, height: height * factor, mode: mode, kernel: kernel,
            upscale: upscale, linearLight: linearLight, background: background, gravity: gravity)
    }

    /// The gravity `fill` uses: `gravity` for `fill`, `.centre` for every other mode.
    public var effectiveGravity: Gravity { mode == .fill ? gravity : .centre }

    /// `resize/v1?w=88,h=88,mode=fill,kernel=lanczos3,up=1,linear=0` (plus `,bg=#rrggbbaa` for
    /// pad, and `,g=<gravity name>` for a fill whose gravity is not `.centre`, such as
    /// `,g=north-east`, `,g=smart` or `,g=focus:0.25,0.7`). Stable across releases: a change of
    /// format bumps `v1`; a centred fill keeps the identifier it had before gravity existed.
    public var identifier: String {
        var s = "resize/v1?w=\(width),h=\(height),mode=\(mode.rawValue),kernel=\(kernel.rawValue)"
        s += ",up=\(upscale ? 1 : 0),linear=\(linearLight ? 1 : 0)"
        if mode == .pad { s += ",bg=\(background.hex)" }
        if effectiveGravity != .centre { s += ",g=\(effectiveGravity.name)" }
        return s
    }

    private enum CodingKeys: String, CodingKey {
        case width, height, mode, kernel, upscale, linearLight, background, gravity
    }

    /// Decodes the stored form; options written before gravity existed decode as `.centre`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let width = try c.decode(Int.self, forKey: .width)
        let height = try c.decode(Int.self, forKey: .height)
        guard width > 0, height > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .width, in: c, debugDescription: "the target size must be positive")
        }
        self.init(
            width: width, height: height, mode: try c.decode(ResizeMode.self, forKey: .mode),
            kernel: try c.decode(ResampleKernel.self, forKey: .kernel),
            upscale: try c.decode(Bool.self, forKey: .upscale),
            linearLight: try c.decode(Bool.self, forKey: .linearLight),
            background: try c.decode(RGBA.self, forKey: .background),
            gravity: try c.decodeIfPresent(Gravity.self, forKey: .gravity) ?? .centre)
    }
}
