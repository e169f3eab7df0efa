// SPDX-License-Identifier: Apache-2.0
/// Everything that decides a set of thumbnails of one source: the box, the scale factors
/// (`[1, 2, 3]` makes @1x, @2x and @3x of a point size) and how the source is decoded.
public struct ThumbnailRequest: Sendable, Hashable {
    /// The @1x box and how the source maps onto it.
    public var resize: ResizeOptions
    /// Scale factors, each ≥ 1; the @Nx box is N times the @1x box.
    public var scales: [Int]
    /// Limits, warning policy, auto-rotation, colour management.
    public var decode: DecodeOptions
    /// JPEG shrink-on-load keeps at least this many decoded pixels per output pixel on the
    /// tighter axis, so the final filter still has detail to work with.
    public var shrinkOnLoadMargin: Double

    public init(
        resize: ResizeOptions, scales: [Int] = [1], decode: DecodeOptions = DecodeOptions(),
        shrinkOnLoadMargin: Double = 2
    ) {
        precondition(!scales.isEmpty && scales.allSatisfy { $0 >= 1 }, "Scales must be ≥ 1.")
        precondition(shrinkOnLoadMargin >= 1, "The shrink-on-load margin must be ≥ 1.")
        self.resize = resize
        self.scales = scales
        self.decode = decode
        self.shrinkOnLoadMargin = shrinkOnLoadMargin
    }
}

/// The thumbnails made from one source, one per requested scale.
public struct ThumbnailSet: Sendable {
    /// The source's header (stored size, orientation, format).
    public var header: ImageHeader
    /// `(scale, image)` in the order the scales were requested.
    public var images: [(scale: Int, image: PixelBuffer)]
    /// Codec warnings that did not stop the decode.
    public var warnings: [String]
    /// The JPEG DCT scale used (n of n/8; 8 for PNG or a full decode).
    public var scaleNumerator: Int
    /// The profile the images are in: nil for sRGB, the source's with `keepProfile`.
    public var colorProfile: ColorProfile? = nil
}
