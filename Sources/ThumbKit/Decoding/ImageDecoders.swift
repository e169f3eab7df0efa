// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Namespace for the decoders. `ImageDecoders.decode` picks one by the file's signature.
public enum ImageDecoders {
    /// Reads just the header of PNG, JPEG, WebP, HEIC or AVIF bytes (EXIF orientation included
    /// for JPEG; always `.up` for HEIC/AVIF, whose transforms libheif applies).
    /// Throws `.empty`, `.notAnImage`, `.unsupported` or `.corrupt` (or `.overLimit` when libjpeg
    /// itself refuses the size, above 65500 px a side); does not check `ImageLimits`.
    public static func readHeader(_ data: [UInt8], path: String) throws(DecodeError) -> ImageHeader {
        try ImageSource(data, path: path).header
    }

    /// Decodes PNG, JPEG, WebP, HEIC or AVIF bytes into RGBA8, as stored (EXIF orientation not
    /// applied; HEIF's irot/imir are, by libheif).
    ///
    /// - Parameters:
    ///   - minimumScale: the smallest decoded/original ratio the caller can use (0 < s ≤ 1).
    ///     A JPEG is decoded at the smallest DCT scale n/8 with n/8 ≥ minimumScale, a HEIC or AVIF
    ///     from its smallest `thmb` thumbnail that large (if any); PNG and WebP ignore it.
    ///   - deadline: when to give up (`.overLimit`); nil starts `options.limits.maxSeconds` now.
    /// - Throws: `DecodeError`; limits are checked from the header before pixels are allocated.
    public static func decode(
        _ data: [UInt8], path: String, options: DecodeOptions = DecodeOptions(), minimumScale: Double = 1,
        deadline: Deadline? = nil
    ) throws(DecodeError) -> DecodedImage {
        let deadline = deadline ?? options.limits.deadline()
        // A file over the size limit is refused before its header is read.
        _ = try format(of: data, path: path)
        try checkFileSize(data, path: path, limits: options.limits)
        return try decode(
            ImageSource(data, path: path), options: options, minimumScale: minimumScale, deadline: deadline)
    }

    /// Decodes a source whose header is already read; see
    /// `decode(_:path:options:minimumScale:deadline:)`. `threads` is how many threads this one
    /// image may use (a sequential JPEG with restart markers decodes its intervals in parallel
    /// at 1/8); give 1 when a batch already runs images side by side.
    public static func decode(
        _ source: ImageSource, options: DecodeOptions = DecodeOptions(), minimumScale: Double = 1,
        deadline: Deadline? = nil, threads: Int = 1
    ) throws(DecodeError) -> DecodedImage {
        let deadline = deadline ?? options.limits.deadline()
        let (data, path) = (source.bytes, source.path)
        try checkFileSize(data, path: path, limits: options.limits)
        switch source.header.format {
        case .png:
            return try PNG.decode(source, options: options, deadline: deadline)
        case .jpeg:
            let numerator = scaleNumerator(forMinimumScale: minimumScale)
            return try JPEG.decode(
                source, options: options, scaleNumerator: numerator, deadline: deadline, threads: threads)
        case .webp:
            return try WebP.decode(source, options: options, deadline: deadline)
        case .heic, .avif:
            return try HEIF.decode(source, options: options, minimumScale: minimumScale, deadline: deadline)
        }
    }

    /// Reads a file and decodes it; see `decode(_:path:options:minimumScale:deadline:)`. The file
    /// size is checked against `options.limits.maxFileBytes` before it is read, and the time limit
    /// counts from before the read.
    public static func decodeFile(
        atPath path: String, options: DecodeOptions = DecodeOptions(), minimumScale: Double = 1
    ) throws(DecodeError) -> DecodedImage {
        let deadline = options.limits.deadline()
        let data = try FileIO.read(path, maxBytes: options.limits.maxFileBytes)
        return try decode(data, path: path, options: options, minimumScale: minimumScale, deadline: deadline)
    }

    /// DCT scales (n of n/8) worth decoding at. 5/8, 6/8 and 7/8 are left out: measured here
    /// they are slower than a full 8/8 decode for every photo tried (libjpeg-turbo has SIMD
    /// IDCTs only for 1/8, 2/8, 4/8 and 8/8; 3/8 costs about the same as 4/8).
    public static let fastScaleNumerators = [1, 2, 3, 4, 8]

    /// The DCT scale numerator (over 8) that `decode` uses for a JPEG: the smallest fast n
    /// with n/8 ≥ `minimumScale`. Values above 1 (or NaN) give 8; values ≤ 1/8 give 1.
    public static func scaleNumerator(forMinimumScale minimumScale: Double) -> Int {
        for n in fastScaleNumerators where Double(n) / 8 >= minimumScale { return n }
        return 8
    }

    /// The size libjpeg gives a `length`-pixel side decoded at `numerator`/8: ceil(length·n/8).
    public static func scaledLength(_ length: Int, numerator: Int) -> Int {
        precondition((1...8).contains(numerator), "Scale numerator must be 1...8.")
        return (length * numerator + 7) / 8
    }

    /// Throws `.overLimit` when `data` is larger than `limits.maxFileBytes`.
    static func checkFileSize(_ data: [UInt8], path: String, limits: ImageLimits) throws(DecodeError) {
        if data.count > limits.maxFileBytes {
            throw .overLimit(
                path: path, reason: "\(data.count) bytes exceeds the file size limit of \(limits.maxFileBytes) bytes")
        }
    }

    /// Sniffs the format or throws `.empty` / `.notAnImage`.
    static func format(of data: [UInt8], path: String) throws(DecodeError) -> ImageFormat {
        if data.isEmpty { throw .empty(path: path) }
        guard let format = ImageFormat.sniff(data) else {
            throw .notAnImage(path: path, reason: "not a \(ImageFormat.readableNames()) file")
        }
        return format
    }

    /// A library message as a `DecodeError`: "unsupported …" messages (12-bit or lossless JPEG,
    /// impossible colour conversions) are `.unsupported`, libjpeg's own size ceiling and
    /// libpng's user limits are `.overLimit`, everything else `.corrupt`.
    static func codecFailure(_ reason: String, path: String) -> DecodeError {
        let overLimitPrefixes = [
            "maximum supported image dimension", "image width exceeds user limit",
            "image height exceeds user limit", "image size exceeds user limits",
        ]
        if overLimitPrefixes.contains(where: { reason.lowercased().hasPrefix($0) }) {
            return .overLimit(path: path, reason: reason)
        }
        let unsupportedPrefixes = [
            "unsupported JPEG data precision", "unsupported JPEG process", "unsupported color conversion",
            "requested features are incompatible", "sorry, arithmetic code not supported",
        ]
        if unsupportedPrefixes.contains(where: { reason.hasPrefix($0) }) {
            return .unsupported(path: path, reason: reason)
        }
        return .corrupt(path: path, reason: reason.isEmpty ? "decoder failed without a message" : reason)
    }

    /// The error for a failed shim call: the time limit when `deadline` has passed, the
    /// warning itself when warnings are fatal, else the library's message.
    static func shimFailure(
        warning: String, error: String, options: DecodeOptions, deadline: Deadline, path: String
    ) -> DecodeError {
        if deadline.hasPassed { return deadline.error(path: path) }
        if options.failsOn(warning: warning) { return .warning(path: path, reason: warning) }
        return codecFailure(error, path: path)
    }

    /// What a row-by-row decode reports once every row has been handed out.
    struct StreamedDecode {
        /// Codec warnings.
        var warnings: [String]
        /// The colour conversion's profile and warnings (the rows were converted already).
        var color: ColorManagement.Outcome
        /// Which decoder made the rows.
        var decoder: DecodePath
    }

    /// A whole image of `count` bytes filled by `fill` (a row reader's keep-every-row sink):
    /// zeroed first when `zeroed` (interlaced passes fill only their own pixels), and on
    /// failure thrown away without claiming any of its bytes, so no garbage is exposed.
    static func wholeImage(
        count: Int, zeroed: Bool = false, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws(DecodeError) -> Void
    ) throws(DecodeError) -> [UInt8] {
        var failure: DecodeError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
            if zeroed { dst.initialize(repeating: 0) }
            do throws(DecodeError) {
                try fill(dst)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return pixels
    }

    /// Rows between two deadline checks in the row-by-row decoders.
    static let rowsPerDeadlineCheck = 16

    /// The row loop of the row-by-row decoders: takes `height` rows of `width` 4-byte pixels
    /// from `next` (a shim's next-row call: nil, or its error message), converts each with
    /// `color` and hands it to `consume`, checking `deadline` every `rowsPerDeadlineCheck` rows.
    /// Returns why it stopped early, or nil when every row was handed out.
    static func pumpRows(
        width: Int, height: Int, color: ColorManagement.Conversion, deadline: Deadline,
        next: (UnsafeMutableBufferPointer<UInt8>) -> String?, consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> String? {
        var row = [UInt8](repeating: 0, count: width * 4)
        for y in 0..<height {
            if let error = row.withUnsafeMutableBufferPointer({ next($0) }) { return error }
            color.apply(&row)
            row.withUnsafeBufferPointer { consume($0) }
            if y % rowsPerDeadlineCheck == 0, deadline.hasPassed { return "time limit exceeded" }
        }
        return nil
    }
}
