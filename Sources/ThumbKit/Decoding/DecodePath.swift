// SPDX-License-Identifier: Apache-2.0
/// Which decoder made an image's pixels: `thumb --json` gives it per file as `"decoder"`, so a
/// user (or a benchmark) can see which path a file took and why it cost what it did.
package enum DecodePath: String, Sendable, Codable, CaseIterable {
    /// libjpeg-turbo, at the file's DCT scale (`decodeScale` in the report).
    case libjpeg
    /// ThumbKit's progressive JPEG path: the DC scan alone at 1/8, the first AC coefficients
    /// too at 2/8 and 3/8 (`ImageDecoders+ProgressiveDC.swift`).
    case progressiveDC = "progressive-dc"
    /// ThumbKit's baseline JPEG path at 1/8: the DC coefficients, the AC symbols skipped
    /// (`ImageDecoders+BaselineDC.swift`).
    case baselineDC = "baseline-dc"
    /// libpng, with zlib's inflate, a few rows at a time.
    case libpng
    /// ThumbKit's PNG path: libpng reads the chunks before the first IDAT, libdeflate inflates
    /// the whole stream and ThumbKit unfilters it (``PNGFastRows``).
    case libdeflate
    /// libwebp.
    case libwebp
    /// libheif, from the primary image.
    case libheif
    /// libheif, from a smaller `thmb` thumbnail item the file carries.
    case heifThumbnail = "libheif-thumbnail"
}
