// SPDX-License-Identifier: Apache-2.0
/// Resource limits checked against a file before any pixel memory is allocated, and the time
/// one image may take. Defaults follow sharp: 268,402,689 pixels (0x3FFF × 0x3FFF), 65,500
/// pixels a side, 256 MiB of input, and 60 s per image.
public struct ImageLimits: Sendable, Hashable, Codable {
    /// Largest width × height accepted.
    public var maxPixels: Int
    /// Largest width or height accepted.
    public var maxDimension: Int
    /// Largest input file accepted, in bytes.
    public var maxFileBytes: Int
    /// Longest wall-clock time spent on one image (read, decode, resize, encode), in seconds;
    /// 0 means no limit. Enforced through a `Deadline` started when the image is.
    public var maxSeconds: Double

    public static let defaultMaxPixels = 268_402_689
    public static let defaultMaxDimension = 65_500
    public static let defaultMaxFileBytes = 256 * 1024 * 1024
    public static let defaultMaxSeconds = 60.0

    public init(
        maxPixels: Int = ImageLimits.defaultMaxPixels,
        maxDimension: Int = ImageLimits.defaultMaxDimension,
        maxFileBytes: Int = ImageLimits.defaultMaxFileBytes,
        maxSeconds: Double = ImageLimits.defaultMaxSeconds
    ) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxFileBytes = maxFileBytes
        self.maxSeconds = maxSeconds
    }

    /// Decodes limits saved before `maxSeconds` existed too (it then gets the default).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            maxPixels: try c.decode(Int.self, forKey: .maxPixels),
            maxDimension: try c.decode(Int.self, forKey: .maxDimension),
            maxFileBytes: try c.decode(Int.self, forKey: .maxFileBytes),
            maxSeconds: try c.decodeIfPresent(Double.self, forKey: .maxSeconds) ?? Self.defaultMaxSeconds)
    }

    /// The most a decoder may hold in whole-image JPEG coefficient buffers for one file: what
    /// libjpeg's buffer (2 bytes a coefficient, 64 a block) takes for a 4-component image of
    /// `maxPixels`, and at least 16 MiB for the MCU padding of small images. Every file within
    /// the pixel limit fits; a buffer planned above it is refused before it is allocated.
    public var coefficientBudgetBytes: Int {
        let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 8)
        return overflow ? .max : max(bytes, 16 << 20)
    }

    /// The most one decode that cannot be interrupted (libheif's, libwebp's) may take at its
    /// peak: 6 bytes a pixel of `maxPixels` (1.5 GiB by default), room for the RGBA image and
    /// half as much again of the library's own buffers. `UninterruptibleDecodeCost` refuses a
    /// decode estimated above it before it starts.
    public var uninterruptibleDecodeBudgetBytes: Int {
        let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 6)
        return overflow ? .max : bytes
    }

    /// A deadline `maxSeconds` from now (`Deadline.never` when there is no time limit).
    public func deadline() -> Deadline { Deadline(seconds: maxSeconds) }

    /// Why an image of `width`×`height` is refused by a dimension limit of `limit` pixels a
    /// side, in the words every format's refusal uses.
    static func dimensionReason(width: Int, height: Int, limit: Int) -> String {
        "\(width)x\(height) exceeds the dimension limit of \(limit) pixels a side"
    }

    /// Throws `.overLimit` when a `width` × `height` image may not be decoded.
    public func check(width: Int, height: Int, path: String) throws(DecodeError) {
        if width > maxDimension || height > maxDimension {
            throw .overLimit(
                path: path, reason: Self.dimensionReason(width: width, height: height, limit: maxDimension))
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw .overLimit(
                path: path, reason: "\(width)x\(height) exceeds the pixel limit of \(maxPixels) pixels")
        }
    }
}

/// How files are decoded.
public struct DecodeOptions: Sendable, Hashable, Codable {
    /// Limits checked from the header, before allocation.
    public var limits: ImageLimits
    /// Treat a codec warning (premature end of data, extraneous bytes) as an error.
    public var failOnWarning: Bool
    /// Apply the EXIF orientation (the default). When false, pixels are used as stored.
    public var autoRotate: Bool
    /// Colour management: rendering intent, black-point compensation, keep the profile.
    public var color: ColorOptions

    public init(
        limits: ImageLimits = ImageLimits(), failOnWarning: Bool = false, autoRotate: Bool = true,
        color: ColorOptions = ColorOptions()
    ) {
        self.limits = limits
        self.failOnWarning = failOnWarning
        self.autoRotate = autoRotate
        self.color = color
    }
}

extension DecodeOptions {
    /// Whether `warning` (a codec's warning text) fails the file: only with `failOnWarning`, and
    /// never for a colour-profile warning, which costs colour accuracy and no image data (libpng's
    /// "iCCP: known incorrect sRGB profile", say). `thumb --fail-on warning` and `watch` (which
    /// makes JPEG warnings fatal) both decide through this rule.
    public func failsOn(warning: String) -> Bool {
        failOnWarning && !warning.isEmpty && !Self.isColorProfileWarning(warning)
    }

    /// libpng names the colour chunk a warning is about first ("iCCP: …", "cHRM: …").
    static let colorChunkPrefixes = ["iccp:", "srgb:", "gama:", "chrm:"]

    /// True for a warning about a colour chunk or an embedded profile, not the image data.
    public static func isColorProfileWarning(_ warning: String) -> Bool {
        let lower = warning.lowercased()
        return colorChunkPrefixes.contains { lower.hasPrefix($0) }
    }
}
