// SPDX-License-Identifier: Apache-2.0
/// What a decode that cannot be interrupted costs at the least, so that it is refused before it
/// starts when the deadline or the memory budget cannot cover it (issue 27, item 8).
///
/// libheif decodes a whole HEIC or AVIF image (every grid cell) in one `heif_decode_image` call,
/// and libwebp decodes a small file whose pixels all arrive in its first 64 KB (a 38-byte
/// lossless WebP can declare 16383×16383) in one `WebPIAppend` call: the deadline is only read
/// before and after. So the cost is bounded from the header instead, for every HEIF and WebP
/// decode (for one libwebp could interrupt, the time is still a lower bound of the whole):
/// - time: the pixel count at the fastest rate measured here (flat content, both cores), so the
///   estimate is a lower bound and a refused image could not have finished in time anyway;
/// - memory: the pixel count times the smallest peak measured per pixel (RSS over pixels, at
///   full size), against `ImageLimits.uninterruptibleDecodeBudgetBytes`.
/// The figures and their commands are in docs/hardening.md.
struct UninterruptibleDecodeCost: Sendable {
    /// The library, for the message.
    let library: String
    /// The fastest decode rate measured, in pixels a second.
    let pixelsPerSecond: Double
    /// The smallest peak memory measured, in bytes per pixel of the image.
    let peakBytesPerPixel: Double

    /// A 16380×16380 AVIF grid (30×30 cells) took 6–9 s and 1.9 GB: 30–45 Mpx/s, 7 B a pixel.
    static let heif = UninterruptibleDecodeCost(library: "libheif", pixelsPerSecond: 50e6, peakBytesPerPixel: 7)
    /// A flat 16383×16383 lossless WebP took 1.65 s and 1.2 GB: 163 Mpx/s, 4.5 B a pixel.
    static let webp = UninterruptibleDecodeCost(library: "libwebp", pixelsPerSecond: 200e6, peakBytesPerPixel: 4.5)

    /// Throws `.overLimit` when a `width` × `height` decode would surely outlast `deadline` or
    /// exceed the memory budget of `limits`; checked before anything is allocated.
    func check(width: Int, height: Int, limits: ImageLimits, deadline: Deadline, path: String) throws(DecodeError) {
        let pixels = Double(width) * Double(height)
        let bytes = pixels * peakBytesPerPixel
        let budget = limits.uninterruptibleDecodeBudgetBytes
        if bytes > Double(budget) {
            throw .overLimit(
                path: path,
                reason: "a \(width)x\(height) image takes at least \(Self.mebibytes(bytes)) MiB to decode in one "
                    + "\(library) call, over the \(Self.mebibytes(Double(budget))) MiB its pixel limit allows")
        }
        guard deadline != .never else { return }
        let now = Deadline.now()
        let left = deadline.nanoseconds > now ? Double(deadline.nanoseconds - now) / 1e9 : 0
        let seconds = pixels / pixelsPerSecond
        if seconds > left {
            throw .overLimit(
                path: path,
                reason: "a \(width)x\(height) image takes at least \(Self.tenths(seconds)) s to decode in one "
                    + "\(library) call that cannot be interrupted, more than the \(Self.tenths(left)) s left "
                    + "of the time limit")
        }
    }

    private static func mebibytes(_ bytes: Double) -> Int { Int((bytes / 1_048_576).rounded()) }
    private static func tenths(_ seconds: Double) -> String { String(Double(Int(seconds * 10)) / 10) }
}
