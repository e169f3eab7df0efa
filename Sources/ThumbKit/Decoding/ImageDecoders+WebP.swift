// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders {
    /// WebP through libwebp: header and ICCP chunk from WebPDemux, pixels as straight-alpha
    /// RGBA8. An animation gives its first frame, composed on its canvas (the header's size).
    /// WebP has no orientation (EXIF chunks are not applied by browsers either): always `.up`.
    enum WebP {
        /// What the header read finds: everything the decoder needs, so that it reads none of it
        /// again (`ImageSource` keeps it).
        struct Parsed: Sendable {
            var header: ImageHeader
            /// The ICCP chunk, if any.
            var icc: [UInt8]?
            /// 1 for a still image.
            var frames: Int
            /// An animation (ANIM flag): the decoder composes the first frame on the canvas.
            var isAnimated: Bool
        }

        /// The header (no pixels) and the embedded ICC profile, if any.
        static func readHeaderAndProfile(_ data: [UInt8], path: String) throws(DecodeError) -> Parsed {
            HeaderParses.record()
            var raw = tk_webp_header()
            var icc: UnsafeMutablePointer<UInt8>? = nil
            var iccSize = 0
            var err = CodecMessage.buffer()
            let rc = data.withUnsafeBufferPointer {
                tk_webp_read_header($0.baseAddress, $0.count, &raw, &icc, &iccSize, &err)
            }
            defer { tk_free(icc) }
            guard rc == 0 else { throw ImageDecoders.codecFailure(CodecMessage.text(err), path: path) }
            let header = ImageHeader(
                format: .webp, width: Int(raw.width), height: Int(raw.height), orientation: .up,
                hasAlpha: raw.has_alpha != 0, isProgressive: false, components: raw.has_alpha != 0 ? 4 : 3)
            let profile = icc.map { [UInt8](UnsafeBufferPointer(start: $0, count: iccSize)) }
            return Parsed(
                header: header, icc: profile, frames: Int(raw.frame_count), isAnimated: raw.has_animation != 0)
        }

        /// Checks the limits, then decodes into a buffer of exactly w×h×4 bytes (the deadline is
        /// checked every 64 KB of input for a still image, before and after the first frame of an
        /// animation) and converts an ICC-tagged image to sRGB. The size, animation flag and
        /// profile are the ones `source` read; libwebp's decoder still parses the RIFF container
        /// itself (its API takes the file, not a parsed header).
        static func decode(
            _ source: ImageSource, options: DecodeOptions, deadline: Deadline = .never
        ) throws(DecodeError) -> DecodedImage {
            guard let parsed = source.webp else { preconditionFailure("\(source.path) is not a WebP source.") }
            let (data, path, header) = (source.bytes, source.path, parsed.header)
            try options.limits.check(width: header.width, height: header.height, path: path)
            try deadline.check(path: path)
            try UninterruptibleDecodeCost.webp.check(
                width: header.width, height: header.height, limits: options.limits, deadline: deadline, path: path)
            let count = header.width * header.height * 4
            var err = CodecMessage.buffer()
            var rc: Int32 = -1
            var pixels = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
                rc = data.withUnsafeBufferPointer { src in
                    tk_webp_decode_rgba8(
                        src.baseAddress, src.count, UInt32(header.width), UInt32(header.height),
                        parsed.isAnimated ? 1 : 0, dst.baseAddress, count, deadline.shimValue, &err)
                }
                initialized = rc == 0 ? count : 0
            }
            guard rc == 0 else {
                throw ImageDecoders.shimFailure(
                    warning: "", error: CodecMessage.text(err), options: options, deadline: deadline, path: path)
            }
            let color = ImageDecoders.manageEmbeddedColor(&pixels, icc: parsed.icc, options: options)
            var image = DecodedImage(
                buffer: PixelBuffer(width: header.width, height: header.height, pixels: pixels), header: header,
                scaleNumerator: 8, warnings: [], colorProfile: color.profile, colorWarnings: color.warnings)
            image.decoder = .libwebp
            return image
        }
    }

    /// Colour management for a decoder that has its ICC profile in hand (WebP ICCP): converted
    /// to sRGB as `options.color` says; nil is sRGB.
    static func manageEmbeddedColor(
        _ pixels: inout [UInt8], icc: [UInt8]?, options: DecodeOptions
    ) -> ColorManagement.Outcome {
        let source = icc.map { SourceColor(profile: ColorProfile(iccData: $0)) } ?? .srgb
        return ColorManagement.convert(&pixels, kind: .rgb, source: source, options: options.color)
    }
}
