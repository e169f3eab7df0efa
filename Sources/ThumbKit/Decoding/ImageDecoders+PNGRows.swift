// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders.PNG {
    /// Decodes a non-interlaced PNG one RGBA8 row at a time, top-down, handing each row to
    /// `consume` (valid only during the call), so the image never has to be in memory whole.
    /// The rows are byte-for-byte those of `decode` (colour management is applied per row), and
    /// failures and warnings are reported the same way. Gives up with `.overLimit` once
    /// `deadline` has passed. `budget` bounds what the fast path may hold.
    ///
    /// - Precondition: the file is not interlaced (`header.isProgressive` is false): an
    ///   interlaced file's later passes fill in earlier rows, so it must be decoded whole.
    static func decodeRows(
        _ source: ImageSource, options: DecodeOptions, deadline: Deadline = .never,
        budget: PNGFastRows.Budget = .everyday, consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DecodeError) -> ImageDecoders.StreamedDecode {
        let (data, path, header) = (source.bytes, source.path, source.header)
        precondition(!header.isProgressive, "Interlaced PNGs cannot be decoded row by row.")
        try options.limits.check(width: header.width, height: header.height, path: path)
        let color = ImageDecoders.colorConversion(data: data, format: .png, kind: pixelKind(header), options: options)
        var decoder = DecodePath.libpng
        let warning = try readRows(
            source, options: options, deadline: deadline, budget: budget, decoder: { decoder = $0 }
        ) {
            _, next in
            ImageDecoders.pumpRows(
                width: header.width, height: header.height, color: color, deadline: deadline,
                next: { next($0.baseAddress!) }, consume: consume)
        }
        return ImageDecoders.StreamedDecode(
            warnings: warning.isEmpty ? [] : [warning], color: color.outcome, decoder: decoder)
    }

    /// The one libpng reader: opens the source's bytes, lets `read` take the rows, then closes it and turns every failure into a ``DecodeError``.
    ///
    /// `read` gets the number of passes (1, or 7 when interlaced; each pass is `height` rows)
    /// and a `next` that decodes one row of `width * 4` bytes to the pointer it is given,
    /// returning nil or libpng's message. It returns why it stopped early, or nil when it read
    /// every row. Returns libpng's first warning ("" when none); a warning fails the decode
    /// only as `options.failsOn(warning:)` says.
    ///
    /// A plainly well-formed 8-bit file that fits the fast path's `budget` is inflated by
    /// libdeflate and unfiltered by ``PNGFastRows`` (same rows, same warnings); `fastPath`
    /// false reads every file through libpng (the tests' reference). `decoder` hears which
    /// path reads the rows (`.libdeflate` or `.libpng`), before they are read.
    static func readRows(
        _ source: ImageSource, options: DecodeOptions, deadline: Deadline, fastPath: Bool = true,
        budget: PNGFastRows.Budget = .everyday, decoder: ((DecodePath) -> Void)? = nil,
        read: (_ passes: Int, _ next: (UnsafeMutablePointer<UInt8>) -> String?) -> String?
    ) throws(DecodeError) -> String {
        let (path, header) = (source.path, source.header)
        var err = CodecMessage.buffer()
        var warn = CodecMessage.buffer()
        var width: UInt32 = 0
        var height: UInt32 = 0
        var passes: Int32 = 0
        return try source.bytes.withUnsafeBufferPointer { (src) throws(DecodeError) -> String in
            // libpng never stops on a warning here (0): `failsOn(warning:)` decides afterwards,
            // so a colour-profile warning is never fatal.
            guard
                let rows = tk_png_rows_begin(
                    src.baseAddress, src.count, 0, deadline.shimValue, &width, &height, &passes, &warn, &err)
            else {
                throw ImageDecoders.shimFailure(
                    warning: CodecMessage.text(warn), error: CodecMessage.text(err), options: options,
                    deadline: deadline, path: path)
            }
            let rowError: String?
            let channels = Int(tk_png_rows_plain_channels(rows))
            if fastPath, channels > 0, Int(width) == header.width, Int(height) == header.height,
                let fast = PNGFastRows(
                    file: src, channels: channels, width: header.width, height: header.height,
                    budget: budget.bytes(options.limits))
            {
                // libpng read the header (its warning is in `warn`); the rows are the fast path's.
                tk_png_rows_release(rows)
                decoder?(.libdeflate)
                let warning = CodecMessage.text(warn)
                let next: (UnsafeMutablePointer<UInt8>) -> String? = { row in
                    fast.next(into: row)
                    return nil
                }
                if let rowError = read(1, next) {
                    throw ImageDecoders.shimFailure(
                        warning: warning, error: rowError, options: options, deadline: deadline, path: path)
                }
                if options.failsOn(warning: warning) { throw .warning(path: path, reason: warning) }
                return warning
            }
            decoder?(.libpng)
            if Int(width) == header.width, Int(height) == header.height {
                let rowBytes = header.width * 4
                rowError = read(Int(passes)) { row in
                    var err = CodecMessage.buffer()
                    return tk_png_rows_next(rows, row, rowBytes, &err) == 0 ? nil : CodecMessage.text(err)
                }
            } else {
                rowError = "header size \(width)x\(height) differs from \(header.width)x\(header.height)"
            }
            let rc = tk_png_rows_finish(rows, &warn, &err)
            let warning = CodecMessage.text(warn)
            if rowError != nil || rc != 0 {
                throw ImageDecoders.shimFailure(
                    warning: warning, error: rowError ?? CodecMessage.text(err), options: options,
                    deadline: deadline, path: path)
            }
            if options.failsOn(warning: warning) { throw .warning(path: path, reason: warning) }
            return warning
        }
    }
}
