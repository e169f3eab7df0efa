import CThumbKit

extension ImageDecoders {
    /// PNG through libpng: header from the low-level reader, pixels from the simplified API
    /// (`png_image_finish_read` to `PNG_FORMAT_RGBA`), so the result is exactly libpng's own
    /// RGBA8 rendering of the file (gAMA applied, 16-bit reduced, palette and tRNS expanded).
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

        /// Reads the header, checks the limits, then decodes into a buffer of exactly w×h×4 bytes,
        /// giving up once `deadline` has passed.
        static func decode(
            _ data: [UInt8], path: String, options: DecodeOptions, deadline: Deadline = .never
        ) throws(DecodeError) -> DecodedImage {
            let header = try readHeader(data, path: path)
            try options.limits.check(width: header.width, height: header.height, path: path)
            let count = header.width * header.height * 4
            var err = CodecMessage.buffer()
            var warn = CodecMessage.buffer()
            var rc: Int32 = -1
            // libpng never stops on a warning here: `failsOn(warning:)` decides afterwards, so a
            // colour-profile warning is never fatal.
            var pixels = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
                rc = data.withUnsafeBufferPointer { src in
                    tk_png_decode_rgba8_until(
                        src.baseAddress, src.count, dst.baseAddress, count, 0,
                        deadline.shimValue, &warn, &err)
                }
                // On failure the array is thrown away; claim nothing so no garbage is exposed.
                initialized = rc == 0 ? count : 0
            }
            let warning = CodecMessage.text(warn)
            guard rc == 0 else {
                throw ImageDecoders.shimFailure(
                    warning: warning, error: CodecMessage.text(err), options: options, deadline: deadline, path: path)
            }
            if options.failsOn(warning: warning) { throw .warning(path: path, reason: warning) }
            // Colour: iCCP / sRGB / gAMA / cHRM to sRGB (ImageDecoders+Color.swift).
            let kind = pixelKind(header)
            let color = ImageDecoders.manageColor(&pixels, data: data, format: .png, kind: kind, options: options)
            return DecodedImage(
                buffer: PixelBuffer(width: header.width, height: header.height, pixels: pixels),
                header: header, scaleNumerator: 8, warnings: warning.isEmpty ? [] : [warning],
                colorProfile: color.profile, colorWarnings: color.warnings)
        }

        /// What the decoded RGBA pixels hold, for colour management.
        static func pixelKind(_ header: ImageHeader) -> DecodedPixelKind {
            header.components <= 2 ? .gray : .rgb
        }
    }
}
