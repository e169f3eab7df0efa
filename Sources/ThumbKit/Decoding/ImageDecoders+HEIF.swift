// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders {
    /// HEIC and AVIF through libheif: the primary image, 8-bit or 10/12-bit (reduced to 8 by
    /// libheif), with alpha, converted to sRGB from its ICC profile or, without one, from its
    /// nclx colour (`NclxColor`); an HDR (PQ, HLG) nclx transfer is refused as `.unsupported`.
    ///
    /// Orientation: libheif applies the `irot`/`imir` (and `clap`) properties while decoding and
    /// reports the size after them, and HEIF (ISO/IEC 23008-12) says a reader must ignore the
    /// EXIF orientation in favour of those properties, as libheif, libvips and browsers do. So
    /// the header's orientation is always `.up`: the pixels come out displayed, and the EXIF tag
    /// (`exifOrientation`) is never applied a second time. `DecodeOptions.autoRotate` false does
    /// not undo `irot` (it is part of the image's geometry in HEIF, like `clap`).
    enum HEIF {
        /// Raw header fields, the ICC profile and the Exif block: everything the decoder needs
        /// besides the pixels (`ImageSource` keeps it).
        struct Parsed: Sendable {
            var header: ImageHeader
            var icc: [UInt8]?
            var exif: [UInt8]?
            var bitDepth: Int
            var imageCount: Int
            /// The primary image's `thmb` thumbnails (0 when this is a thumbnail's header).
            var thumbnailCount: Int
            /// The nclx profile's H.273 colour primaries and transfer; nil without an nclx profile.
            var nclx: NclxColor?

            /// Why the pixels cannot be made sRGB (an HDR nclx transfer and no ICC profile), or nil.
            var colorRefusal: String? { icc == nil ? nclx?.refusal : nil }
        }

        /// Reads the primary image's header with libheif (no pixels are decoded), or with
        /// `thumbnail` ≥ 0 the header of that `thmb` thumbnail of it.
        static func parse(
            _ data: [UInt8], format: ImageFormat, path: String, limits: ImageLimits, thumbnail: Int = -1
        ) throws(DecodeError) -> Parsed {
            if thumbnail < 0 { HeaderParses.record() }
            var raw = tk_heif_header()
            var icc: UnsafeMutablePointer<UInt8>? = nil
            var iccSize = 0
            var exif: UnsafeMutablePointer<UInt8>? = nil
            var exifSize = 0
            var err = CodecMessage.buffer()
            let maxDimension = Int32(clamping: limits.maxDimension)
            let rc = data.withUnsafeBufferPointer {
                tk_heif_read_header(
                    $0.baseAddress, $0.count, maxDimension, Int32(thumbnail), &raw, &icc, &iccSize, &exif, &exifSize,
                    &err)
            }
            defer {
                tk_free(icc)
                tk_free(exif)
            }
            guard rc == 0 else { throw failure(CodecMessage.text(err), path: path) }
            // libheif reports a primary image whose `ispe` says 0×N (found by fuzzing) as read.
            guard raw.width > 0, raw.height > 0 else {
                throw .corrupt(path: path, reason: "the primary image has no size (\(raw.width)x\(raw.height))")
            }
            let header = ImageHeader(
                format: format, width: Int(raw.width), height: Int(raw.height), orientation: .up,
                hasAlpha: raw.has_alpha != 0, isProgressive: false, components: raw.has_alpha != 0 ? 4 : 3)
            return Parsed(
                header: header, icc: icc.map { [UInt8](UnsafeBufferPointer(start: $0, count: iccSize)) },
                exif: exif.map { [UInt8](UnsafeBufferPointer(start: $0, count: exifSize)) },
                bitDepth: Int(raw.bit_depth), imageCount: Int(raw.image_count),
                thumbnailCount: Int(raw.thumbnail_count),
                nclx: raw.nclx_primaries == 0 && raw.nclx_transfer == 0
                    ? nil : NclxColor(primaries: Int(raw.nclx_primaries), transfer: Int(raw.nclx_transfer)))
        }

        /// The limits `ImageSource` reads a header with (libheif gets their `maxDimension`): the
        /// defaults, as a header read checks no limit of the caller's. The header's orientation
        /// is `.up`: see the type's note.
        static let headerLimits = ImageLimits()

        /// The orientation the file's Exif block states, which libheif's transforms supersede
        /// (reported for information and tests; never applied). nil without an Exif block.
        static func exifOrientation(_ data: [UInt8], path: String) throws(DecodeError) -> ExifOrientation? {
            let format = try ImageDecoders.format(of: data, path: path)
            guard let exif = try parse(data, format: format, path: path, limits: ImageLimits()).exif,
                exif.count > 4
            else { return nil }
            // HEIF Exif items start with a 4-byte offset to the TIFF header.
            let offset = Int(exif[0]) << 24 | Int(exif[1]) << 16 | Int(exif[2]) << 8 | Int(exif[3])
            guard offset >= 0, 4 + offset < exif.count else { return nil }
            return ExifReader.orientation(inTIFF: exif[(4 + offset)...])
        }

        /// Checks the limits, then decodes the primary image into a buffer of exactly w×h×4
        /// bytes, or, when `minimumScale` < 1 and the file has a `thmb` thumbnail that serves it
        /// (`thumbnail(for:minimumScale:…)`), that thumbnail: an iPhone's 320×240 serves a 44×44
        /// list thumbnail in a fraction of the primary grid's time and memory. The decoded
        /// image's `loadScale` is then the thumbnail's scale. heif_decode_image is one call that
        /// cannot be interrupted, so the deadline is checked before and after it, and a decode
        /// that would surely outlast the deadline or the memory budget is refused before it
        /// starts (`UninterruptibleDecodeCost`), for the image actually decoded.
        ///
        /// The header, profile and nclx colour are the ones `source` read, unless `options` has a
        /// smaller `maxDimension` than `headerLimits`: libheif then reads the header again with it
        /// (and may refuse the file, in its own words). libheif's decode call still reads the
        /// container again (`heif_context_read_from_memory` in the shim): the shim keeps no libheif
        /// handle between calls, and a context holds the limits it was read with.
        static func decode(
            _ source: ImageSource, options: DecodeOptions, minimumScale: Double = 1, deadline: Deadline = .never,
            threads: Int = 0
        ) throws(DecodeError) -> DecodedImage {
            guard let read = source.heif else { preconditionFailure("\(source.path) is not a HEIF source.") }
            let (data, path) = (source.bytes, source.path)
            let primary =
                options.limits.maxDimension >= headerLimits.maxDimension
                ? read : try parse(data, format: source.header.format, path: path, limits: options.limits)
            let header = primary.header
            try options.limits.check(width: header.width, height: header.height, path: path)
            if let refusal = primary.colorRefusal { throw .unsupported(path: path, reason: refusal) }
            try deadline.check(path: path)
            let chosen = thumbnail(
                for: primary, minimumScale: minimumScale, data: data, format: header.format, path: path,
                limits: options.limits)
            let decoded = chosen?.parsed ?? primary
            let (width, height) = (decoded.header.width, decoded.header.height)
            try UninterruptibleDecodeCost.heif.check(
                width: width, height: height, limits: options.limits, deadline: deadline, path: path)
            let count = width * height * 4
            var err = CodecMessage.buffer()
            var rc: Int32 = -1
            let maxDimension = Int32(clamping: options.limits.maxDimension)
            let item = Int32(chosen?.index ?? -1)
            var pixels = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
                rc = data.withUnsafeBufferPointer { src in
                    tk_heif_decode_rgba8(
                        src.baseAddress, src.count, maxDimension, item, Int32(threads), dst.baseAddress, count,
                        deadline.shimValue, &err)
                }
                initialized = rc == 0 ? count : 0
            }
            guard rc == 0 else {
                if deadline.hasPassed { throw deadline.error(path: path) }
                throw failure(CodecMessage.text(err), path: path)
            }
            let color = ColorManagement.convert(
                &pixels, kind: .rgb, source: SourceColor.heif(icc: decoded.icc, nclx: decoded.nclx),
                options: options.color)
            var image = DecodedImage(
                buffer: PixelBuffer(width: width, height: height, pixels: pixels), header: header,
                scaleNumerator: 8, warnings: [], colorProfile: color.profile, colorWarnings: color.warnings)
            if chosen != nil { image.thumbnailScale = Double(width) / Double(header.width) }
            image.decoder = chosen != nil ? .heifThumbnail : .libheif
            return image
        }

        /// The smallest `thmb` thumbnail of `primary` that can stand in for it at `minimumScale`
        /// (decoded ÷ original, as JPEG shrink-on-load uses it), or nil. A thumbnail qualifies
        /// when each side is at least `minimumScale` of the primary image's and smaller than it,
        /// its shape is the primary image's to within one of its pixels (so it shows the same
        /// picture the same way up), its alpha is the primary's, and its colour can be made sRGB.
        /// A thumbnail libheif cannot read is passed over.
        static func thumbnail(
            for primary: Parsed, minimumScale: Double, data: [UInt8], format: ImageFormat, path: String,
            limits: ImageLimits
        ) -> (index: Int, parsed: Parsed)? {
            guard minimumScale < 1, minimumScale > 0, primary.thumbnailCount > 0 else { return nil }
            let (width, height) = (primary.header.width, primary.header.height)
            var best: (index: Int, parsed: Parsed)?
            for index in 0..<primary.thumbnailCount {
                guard let candidate = try? parse(data, format: format, path: path, limits: limits, thumbnail: index)
                else { continue }
                let (w, h) = (candidate.header.width, candidate.header.height)
                let serves =
                    Double(w) >= (Double(width) * minimumScale).rounded(.up)
                    && Double(h) >= (Double(height) * minimumScale).rounded(.up) && w < width && h < height
                let sameShape = abs(w * height - h * width) <= max(width, height)
                guard serves, sameShape, candidate.header.hasAlpha == primary.header.hasAlpha,
                    candidate.colorRefusal == nil
                else { continue }
                if best.map({ w * h < $0.parsed.header.width * $0.parsed.header.height }) ?? true {
                    best = (index, candidate)
                }
            }
            return best
        }

        /// A libheif message as a `DecodeError`: its security limits are `.overLimit`,
        /// "Unsupported …" errors (a codec plugin missing) `.unsupported`, the rest `.corrupt`.
        static func failure(_ reason: String, path: String) -> DecodeError {
            let lower = reason.lowercased()
            if lower.contains("security limit") || lower.contains("exceeds the maximum image size") {
                // libheif calls an image over its size limit a "Memory allocation error: Security
                // limit exceeded: Image size 70000x1000 exceeds the maximum image size
                // 65500x65500": say it as the dimension limit of every other format is said.
                if let size = sizeOverLimit(reason) {
                    return .overLimit(
                        path: path, reason: ImageLimits.dimensionReason(width: size.0, height: size.1, limit: size.2))
                }
                return .overLimit(path: path, reason: reason)
            }
            if lower.hasPrefix("unsupported") { return .unsupported(path: path, reason: reason) }
            return .corrupt(path: path, reason: reason)
        }

        /// The width, height and limit of libheif's "Image size WxH exceeds the maximum image
        /// size LxL", or nil for any other message.
        static func sizeOverLimit(_ message: String) -> (Int, Int, Int)? {
            let lower = message.lowercased()
            guard let start = lower.firstRange(of: "image size "), lower.contains("exceeds the maximum image size")
            else { return nil }
            let numbers = lower[start.upperBound...].split { !$0.isNumber }.prefix(3).compactMap { Int($0) }
            return numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : nil
        }
    }
}
