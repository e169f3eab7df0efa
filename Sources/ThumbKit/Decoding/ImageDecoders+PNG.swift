// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders {
    /// PNG through libpng's low-level reader (png_rows.c): the header, then rows. Pixels are
    /// libpng's own RGBA8 rendering of the file (gAMA applied, 16-bit reduced, palette and tRNS
    /// expanded), the rendering its simplified API gives for `PNG_FORMAT_RGBA`.
    ///
    /// Rows are the only decode path: ``decode(_:options:deadline:)`` is the sink that keeps
    /// every row (and the one an interlaced file needs, since its passes revisit rows);
    /// ``decodeRows(_:options:deadline:consume:)`` hands each row on and keeps none.
    enum PNG {
        /// The header (no pixels), with the orientation of an `eXIf` chunk when there is one.
        static func readHeader(_ data: [UInt8], path: String) throws(DecodeError) -> ImageHeader {
            var raw = tk_png_header()
            var err = CodecMessage.buffer()
            let rc = data.withUnsafeBufferPointer { tk_png_read_header($0.baseAddress, $0.count, &raw, &err) }
            guard rc == 0 else { throw ImageDecoders.codecFailure(CodecMessage.text(err), path: path) }
            let components: Int
            switch raw.color_type {
            case 0: components = 1
            case 4: components = 2
            case 6: components = 4
            default: components = 3  // rgb and palette
            }
            return ImageHeader(
                format: .png, width: Int(raw.width), height: Int(raw.height),
                orientation: ExifReader.orientation(inPNG: data) ?? .up,
                hasAlpha: raw.has_alpha != 0, isProgressive: raw.interlaced != 0, components: components)
        }

        /// Checks the limits, then decodes every row into a buffer of exactly w×h×4 bytes, giving
        /// up once `deadline` has passed.
        static func decode(
            _ source: ImageSource, options: DecodeOptions, deadline: Deadline = .never
        ) throws(DecodeError) -> DecodedImage {
            let (data, path, header) = (source.bytes, source.path, source.header)
            try options.limits.check(width: header.width, height: header.height, path: path)
            let stride = header.width * 4
            let count = stride * header.height
            var warning = ""
            var decoder = DecodePath.libpng
            // An interlaced file's passes each fill in only their own pixels of a row.
            var pixels = try ImageDecoders.wholeImage(count: count, zeroed: header.isProgressive) {
                (dst) throws(DecodeError) in
                warning = try readRows(source, options: options, deadline: deadline, decoder: { decoder = $0 }) {
                    passes, next in
                    for _ in 0..<passes {
                        for y in 0..<header.height {
                            if let error = next(dst.baseAddress! + y * stride) { return error }
                            if y % ImageDecoders.rowsPerDeadlineCheck == 0, deadline.hasPassed {
                                return "time limit exceeded"
                            }
                        }
                    }
                    return nil
                }
            }
            // Colour: iCCP / sRGB / gAMA / cHRM to sRGB (ImageDecoders+Color.swift).
            let color = ImageDecoders.manageColor(
                &pixels, data: data, format: .png, kind: pixelKind(header), options: options)
            var image = DecodedImage(
                buffer: PixelBuffer(width: header.width, height: header.height, pixels: pixels),
                header: header, scaleNumerator: 8, warnings: warning.isEmpty ? [] : [warning],
                colorProfile: color.profile, colorWarnings: color.warnings)
            image.decoder = decoder
            return image
        }

        /// What the decoded RGBA pixels hold, for colour management.
        static func pixelKind(_ header: ImageHeader) -> DecodedPixelKind {
            header.components <= 2 ? .gray : .rgb
        }
    }
}
