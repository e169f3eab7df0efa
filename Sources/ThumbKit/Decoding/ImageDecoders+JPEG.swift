import CThumbKit

extension ImageDecoders {
    /// JPEG through libjpeg-turbo, from memory, with DCT-domain shrink-on-load.
    enum JPEG {
        /// The public header plus the colour facts the decoder needs.
        struct Header {
            var header: ImageHeader
            /// The file stores CMYK or YCCK; libjpeg hands back CMYK bytes.
            var isCMYK: Bool
            /// Adobe APP14 present: CMYK values are stored inverted (Photoshop's convention).
            var isAdobe: Bool
        }

        /// libjpeg's J_COLOR_SPACE values for the file colour spaces that decode to CMYK.
        private static let cmykColorSpace: Int32 = 4
        private static let ycckColorSpace: Int32 = 5

        static func readHeader(_ data: [UInt8], path: String) throws(DecodeError) -> Header {
            var raw = tk_jpeg_header()
            var err = CodecMessage.buffer()
            let rc = data.withUnsafeBufferPointer { tk_jpeg_read_header($0.baseAddress, $0.count, &raw, &err) }
            guard rc == 0 else { throw ImageDecoders.codecFailure(CodecMessage.text(err), path: path) }
            let isCMYK = raw.color_space == cmykColorSpace || raw.color_space == ycckColorSpace
            let header = ImageHeader(
                format: .jpeg, width: Int(raw.width), height: Int(raw.height),
                orientation: ExifReader.orientation(inJPEG: data) ?? .up,
                hasAlpha: false, isProgressive: raw.progressive != 0, components: Int(raw.components))
            return Header(header: header, isCMYK: isCMYK, isAdobe: raw.saw_adobe_marker != 0)
        }

        /// Reads the header, checks the limits on the full size, then decodes at `scaleNumerator`/8
        /// into a buffer of exactly ceil(w·n/8) × ceil(h·n/8) × 4 bytes.
        static func decode(
            _ data: [UInt8], path: String, options: DecodeOptions, scaleNumerator: Int
        ) throws(DecodeError) -> DecodedImage {
            let info = try readHeader(data, path: path)
            let header = info.header
            try options.limits.check(width: header.width, height: header.height, path: path)
            let width = ImageDecoders.scaledLength(header.width, numerator: scaleNumerator)
            let height = ImageDecoders.scaledLength(header.height, numerator: scaleNumerator)
            let count = width * height * 4
            // Progressive at 1/8, 2/8, 3/8: decode only what reaches the output (see
            // ImageDecoders+ProgressiveDC.swift); at 1/8 smoothing off on both paths so they agree.
            let progressiveAtOneEighth = scaleNumerator == 1 && header.isProgressive
            if header.isProgressive, !options.failOnWarning,
               var pixels = decodeProgressiveFast(data, scaleNumerator: scaleNumerator) {
                if info.isCMYK { CMYKConversion.convertToRGBA(&pixels, inverted: info.isAdobe) }
                return DecodedImage(
                    buffer: PixelBuffer(width: width, height: height, pixels: pixels),
                    header: header, scaleNumerator: scaleNumerator, warnings: [])
            }
            var err = CodecMessage.buffer()
            var warn = CodecMessage.buffer()
            var warningCount: Int32 = 0
            var rc: Int32 = -1
            var pixels = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
                var outWidth: UInt32 = 0
                var outHeight: UInt32 = 0
                rc = data.withUnsafeBufferPointer { src in
                    tk_jpeg_decode(
                        src.baseAddress, src.count, Int32(scaleNumerator), progressiveAtOneEighth ? 0 : 1,
                        options.failOnWarning ? 1 : 0,
                        dst.baseAddress, count, &outWidth, &outHeight, &warningCount, &warn, &err)
                }
                // On failure the array is thrown away; claim nothing so no garbage is exposed.
                initialized = rc == 0 ? count : 0
            }
            let warning = CodecMessage.text(warn)
            guard rc == 0 else {
                if options.failOnWarning, !warning.isEmpty {
                    throw .warning(path: path, reason: warning)
                }
                throw ImageDecoders.codecFailure(CodecMessage.text(err), path: path)
            }
            if info.isCMYK {
                CMYKConversion.convertToRGBA(&pixels, inverted: info.isAdobe)
            }
            var warnings: [String] = []
            if !warning.isEmpty {
                warnings.append(warning)
                if warningCount > 1 { warnings.append("\(warningCount - 1) more libjpeg warnings") }
            }
            return DecodedImage(
                buffer: PixelBuffer(width: width, height: height, pixels: pixels),
                header: header, scaleNumerator: scaleNumerator, warnings: warnings)
        }
    }
}
