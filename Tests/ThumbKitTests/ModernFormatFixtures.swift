// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitQuality
import ThumbKitTestSupport

@testable import ThumbKit

/// WebP, HEIC and AVIF test files generated once per test run from the shared photos with the
/// Debian tools, in a temporary folder (never committed), next to the PNGs they came from.
struct ModernFormatFixtures: Sendable {
    static let tools = ToolRequirement.programs([
        "cwebp", "img2webp", "dwebp", "webpinfo", "heif-enc", "heif-info", "avifenc", "avifdec",
    ])

    /// The folder, and the PNG (RGBA pixels) each generated file must decode close to.
    let folder: URL
    let sources: [String: PixelBuffer]

    /// One generated file: its name, the source it came from, and the displayed orientation
    /// expected relative to the source (`.left` for `irot` 1: 90° anticlockwise).
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var source: String
        var format: ImageFormat
        var expectedOrientation: ExifOrientation = .up
        var minimumSSIM: Double
        var description: String { file }
    }

    static let cases: [Case] = [
        Case(file: "lossy.webp", source: "photo", format: .webp, minimumSSIM: 0.93),
        Case(file: "lossless.webp", source: "photo", format: .webp, minimumSSIM: 0.9999),
        Case(file: "alpha.webp", source: "alpha", format: .webp, minimumSSIM: 0.93),
        Case(file: "animated.webp", source: "photo", format: .webp, minimumSSIM: 0.9999),
        Case(file: "plain.heic", source: "photo", format: .heic, minimumSSIM: 0.93),
        // EXIF orientation 6 and no irot: libheif (and HEIF) ignore the EXIF tag.
        Case(file: "exif6.heic", source: "photo", format: .heic, minimumSSIM: 0.93),
        Case(file: "alpha.avif", source: "alpha", format: .avif, minimumSSIM: 0.93),
        Case(file: "deep10.avif", source: "photo", format: .avif, minimumSSIM: 0.93),
        // irot 1 (90° anticlockwise) *and* EXIF orientation 6: rotated once, by irot only.
        Case(file: "irot-exif6.avif", source: "photo", format: .avif, expectedOrientation: .left, minimumSSIM: 0.93),
    ]

    /// Built on first use; nil when a tool is missing (the tests carry `.needs(tools)`, and fail
    /// through `require` under CI=true).
    static let shared: ModernFormatFixtures? = {
        guard ToolRequirement.missing(tools).isEmpty, TestCorpus.isAvailable else { return nil }
        return try? make()
    }()

    /// The fixtures, or nil after a visible skip (a failure under CI=true).
    static func require(sourceLocation: SourceLocation = #_sourceLocation) -> ModernFormatFixtures? {
        guard TestCorpus.requireCorpus(sourceLocation: sourceLocation),
            ToolRequirement.require(tools, sourceLocation: sourceLocation)
        else { return nil }
        guard let shared else {
            Issue.record("could not generate the modern-format fixtures", sourceLocation: sourceLocation)
            return nil
        }
        return shared
    }

    /// Bytes of a generated file.
    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// A photo as a small sRGB PNG made by ThumbKit (fill 240×160), or an RGBA icon (fit 160).
    static func source(_ corpusPath: String, _ resize: ResizeOptions) throws -> PixelBuffer {
        let data = try TestCorpus.bytes(of: corpusPath)
        return try Thumbnailer.render(data, path: corpusPath, variants: [resize]).images[0]
    }

    static func make() throws -> ModernFormatFixtures {
        let folder = try TestBinary.temporaryDirectory("tk-modern")
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        func write(_ bytes: [UInt8], _ name: String) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let photo = try source("photos/chelsea.png", ResizeOptions(width: 240, height: 160))
        let second = try source("photos/coffee.png", ResizeOptions(width: 240, height: 160))
        let alpha = try source("photos/tuxpaint_balloon360.png", ResizeOptions(width: 160, height: 160, mode: .fit))
        try write(try ImageEncoders.encode(photo, options: EncodeOptions(format: .png)), "photo.png")
        try write(try ImageEncoders.encode(second, options: EncodeOptions(format: .png)), "second.png")
        try write(try ImageEncoders.encode(alpha, options: EncodeOptions(format: .png)), "alpha.png")
        let jpeg = try ImageEncoders.encode(photo, options: EncodeOptions(format: .jpeg, quality: 97))
        try write(CodecTools.withExifOrientation(jpeg, orientation: 6), "photo-exif6.jpg")
        try write(CodecTools.exifTIFF(orientation: 6), "exif6.tiff")

        try CodecTools.mustRun("cwebp", ["-quiet", "-q", "90", path("photo.png"), "-o", path("lossy.webp")])
        try CodecTools.mustRun("cwebp", ["-quiet", "-lossless", path("photo.png"), "-o", path("lossless.webp")])
        try CodecTools.mustRun("cwebp", ["-quiet", "-q", "90", path("alpha.png"), "-o", path("alpha.webp")])
        try CodecTools.mustRun(
            "img2webp", ["-loop", "0", "-lossless", path("photo.png"), path("second.png"), "-o", path("animated.webp")])
        try CodecTools.mustRun("heif-enc", ["-q", "90", path("photo.png"), "-o", path("plain.heic")])
        try CodecTools.mustRun("heif-enc", ["-q", "90", path("photo-exif6.jpg"), "-o", path("exif6.heic")])
        let quantizers = ["--min", "0", "--max", "8", "--minalpha", "0", "--maxalpha", "0", "-s", "8"]
        try CodecTools.mustRun("avifenc", quantizers + [path("alpha.png"), path("alpha.avif")])
        try CodecTools.mustRun("avifenc", quantizers + ["-d", "10", path("photo.png"), path("deep10.avif")])
        try CodecTools.mustRun(
            "avifenc",
            quantizers + ["--irot", "1", "--exif", path("exif6.tiff"), path("photo.png"), path("irot-exif6.avif")])
        return ModernFormatFixtures(folder: folder, sources: ["photo": photo, "alpha": alpha, "second": second])
    }
}
