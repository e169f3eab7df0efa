// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders {
    /// JPEG through libjpeg-turbo, from memory, with DCT-domain shrink-on-load.
    enum JPEG {
        /// The public header plus the colour facts the decoder needs.
        struct Header: Sendable {
            var header: ImageHeader
            /// The file stores CMYK or YCCK; libjpeg hands back CMYK bytes.
            var isCMYK: Bool
            /// Adobe APP14 present: CMYK values are stored inverted (Photoshop's convention).
            var isAdobe: Bool
            /// The file's colour space as libjpeg reads it (J_COLOR_SPACE).
            var colorSpace: Int32
            /// libjpeg warned while reading the header (the baseline fast path then declines).
            var headerWarned = false
            /// The file's markers (frame header now, scan layout on first use), for the
            /// progressive and baseline fast paths.
            var markers: JPEGMarkers?

            /// What the decoded pixels hold, for colour management.
            var pixelKind: DecodedPixelKind {
                isCMYK ? .cmyk(inverted: isAdobe) : header.components == 1 ? .gray : .rgb
            }
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
            return Header(
                header: header, isCMYK: isCMYK, isAdobe: raw.saw_adobe_marker != 0, colorSpace: raw.color_space,
                headerWarned: raw.header_warnings > 0, markers: JPEGMarkers(data))
        }

        /// Checks the limits on the full size, then decodes at `scaleNumerator`/8 into a buffer of
        /// exactly ceil(w·n/8) × ceil(h·n/8) × 4 bytes, giving up once `deadline` has passed.
        /// `fastPaths: false` (tests only) leaves every file to libjpeg, as the reference the fast
        /// paths are held to.
        static func decode(
            _ source: ImageSource, options: DecodeOptions, scaleNumerator: Int, deadline: Deadline = .never,
            fastPaths: Bool = true, threads: Int = 1
        ) throws(DecodeError) -> DecodedImage {
            let start = try begin(
                source, options: options, scaleNumerator: scaleNumerator, deadline: deadline, fastPaths: fastPaths,
                threads: threads)
            let (data, path, info) = try jpegParts(source)
            let (header, width, height) = (info.header, start.width, start.height)
            var pixels: [UInt8]
            var warnings: [String] = []
            if let fast = start.fast {
                pixels = fast
            } else {
                (pixels, warnings) = try decodeWithLibjpeg(
                    data, path: path, options: options, width: header.width, height: header.height,
                    scaleNumerator: scaleNumerator, blockSmoothing: !(scaleNumerator == 1 && header.isProgressive),
                    deadline: deadline)
            }
            // Colour: embedded profile to sRGB, CMYK to RGBA (ImageDecoders+Color.swift).
            let color = ImageDecoders.manageColor(
                &pixels, data: data, format: .jpeg, kind: info.pixelKind, options: options)
            var image = DecodedImage(
                buffer: PixelBuffer(width: width, height: height, pixels: pixels),
                header: header, scaleNumerator: scaleNumerator, warnings: warnings,
                colorProfile: color.profile, colorWarnings: color.warnings)
            image.decoder = start.decoder
            return image
        }

        /// What both sinks (``decode(_:options:scaleNumerator:deadline:)`` and
        /// ``decodeRows(_:options:scaleNumerator:deadline:consume:)``) do before libjpeg: the
        /// limits on the full size, the scaled size, a progressive file's coefficient-memory
        /// check, then its fast path at 1/8, 2/8 or 3/8, which decodes only what reaches the
        /// output (ImageDecoders+ProgressiveDC.swift; at 1/8 smoothing is off on both paths, so
        /// they agree), or a sequential file's at 1/8 (ImageDecoders+BaselineDC.swift). `fast` is
        /// that path's image, or nil when libjpeg must decode, and `decoder` names the path; either
        /// way the deadline has been checked after it (the fast path may have stopped for it).
        ///
        /// Strict decoding (`failOnWarning`) takes the baseline path too: it answers only for a
        /// file libjpeg reads without a warning, and then with libjpeg's pixels, so the outcome is
        /// the same (`StrictFastPathTests` holds every corpus JPEG to that). The progressive paths
        /// stay off then: they skip the AC scans, so they cannot know whether libjpeg would warn
        /// about damage there.
        static func begin(
            _ source: ImageSource, options: DecodeOptions, scaleNumerator: Int, deadline: Deadline,
            fastPaths: Bool = true, threads: Int = 1
        ) throws(DecodeError) -> (width: Int, height: Int, fast: [UInt8]?, decoder: DecodePath) {
            let (_, path, info) = try jpegParts(source)
            let header = info.header
            try options.limits.check(width: header.width, height: header.height, path: path)
            let width = ImageDecoders.scaledLength(header.width, numerator: scaleNumerator)
            let height = ImageDecoders.scaledLength(header.height, numerator: scaleNumerator)
            var fast: [UInt8]? = nil
            if header.isProgressive {
                try checkCoefficientMemory(source, scaleNumerator, options.limits)
                if fastPaths && !options.failOnWarning {
                    fast = decodeProgressiveFast(
                        source, scaleNumerator: scaleNumerator, deadline: deadline,
                        maxBytes: options.limits.coefficientBudgetBytes)
                }
            } else if fastPaths && scaleNumerator == 1 {
                fast =
                    decodeBaselineAtOneEighth(
                        source, deadline: deadline, maxBytes: options.limits.coefficientBudgetBytes, directOnly: true,
                        threads: threads)?.pixels
            }
            try deadline.check(path: path)
            let decoder: DecodePath = fast == nil ? .libjpeg : header.isProgressive ? .progressiveDC : .baselineDC
            return (width, height, fast, decoder)
        }

        /// The bytes, path and JPEG header of a JPEG source (a programming error for another format).
        static func jpegParts(_ source: ImageSource) throws(DecodeError) -> ([UInt8], String, Header) {
            guard let info = source.jpeg else { preconditionFailure("\(source.path) is not a JPEG source.") }
            return (source.bytes, source.path, info)
        }

        /// libjpeg's decode of the whole file at `scaleNumerator`/8 (RGBA, or CMYK for CMYK and
        /// YCCK files), with its warnings; gives up once `deadline` has passed. `width` and
        /// `height` are the full size the header gives: the image is allocated from them before
        /// libjpeg reads anything, and a frame of another size fails the decode.
        /// This is the sink of ``readRows(_:path:options:scaleNumerator:blockSmoothing:deadline:read:)``
        /// that keeps every row: libjpeg writes each row straight into the image.
        static func decodeWithLibjpeg(
            _ data: [UInt8], path: String, options: DecodeOptions, width: Int, height: Int, scaleNumerator: Int,
            blockSmoothing: Bool, deadline: Deadline
        ) throws(DecodeError) -> (pixels: [UInt8], warnings: [String]) {
            let count =
                ImageDecoders.scaledLength(width, numerator: scaleNumerator)
                * ImageDecoders.scaledLength(height, numerator: scaleNumerator) * 4
            var warnings: [String] = []
            let pixels = try ImageDecoders.wholeImage(count: count) { (dst) throws(DecodeError) in
                warnings = try readRows(
                    data, path: path, options: options, scaleNumerator: scaleNumerator,
                    blockSmoothing: blockSmoothing, deadline: deadline
                ) { width, height, next in
                    let stride = width * 4
                    guard stride * height == count else {
                        return "the \(width)x\(height) image does not fit \(count) bytes"
                    }
                    for y in 0..<height {
                        let row = UnsafeMutableBufferPointer(rebasing: dst[(y * stride)..<((y + 1) * stride)])
                        if let error = next(row) { return error }
                    }
                    return nil
                }
            }
            return (pixels, warnings)
        }

        /// A decode's warnings as log lines: the first one's text, then how many more there were.
        static func warningLines(_ first: String, count: Int32) -> [String] {
            guard !first.isEmpty else { return [] }
            return count > 1 ? [first, "\(count - 1) more libjpeg warnings"] : [first]
        }
    }
}
