import CThumbKit

extension ImageDecoders.PNG {
    /// Decodes a non-interlaced PNG one RGBA8 row at a time, top-down, handing each row to
    /// `consume` (valid only during the call), so the image never has to be in memory whole.
    /// The rows are byte-for-byte those of `decode` (libpng's simplified-API rendering, then
    /// colour management), and failures and warnings are reported the same way. Gives up with
    /// `.overLimit` once `deadline` has passed.
    ///
    /// - Precondition: the file is not interlaced (`header.isProgressive` is false): an
    ///   interlaced file's later passes fill in earlier rows, so it must be decoded whole.
    static func decodeRows(
        _ data: [UInt8], path: String, header: ImageHeader, options: DecodeOptions, deadline: Deadline = .never,
        consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DecodeError) -> ImageDecoders.StreamedDecode {
        precondition(!header.isProgressive, "Interlaced PNGs cannot be decoded row by row.")
        try options.limits.check(width: header.width, height: header.height, path: path)
        let color = ImageDecoders.colorConversion(data: data, format: .png, kind: pixelKind(header), options: options)
        var err = CodecMessage.buffer()
        var warn = CodecMessage.buffer()
        var width: UInt32 = 0
        var height: UInt32 = 0
        // The decoder reads `data` in place: the array must stay put until finish.
        return try data.withUnsafeBufferPointer { (src) throws(DecodeError) -> ImageDecoders.StreamedDecode in
            guard
                let rows = tk_png_rows_begin(
                    src.baseAddress, src.count, 0, &width, &height, &warn, &err)
            else {
                throw ImageDecoders.shimFailure(
                    warning: CodecMessage.text(warn), error: CodecMessage.text(err), options: options,
                    deadline: deadline, path: path)
            }
            let rowError: String?
            if Int(width) == header.width, Int(height) == header.height {
                rowError = ImageDecoders.pumpRows(
                    width: header.width, height: header.height, color: color, deadline: deadline,
                    next: { row in
                        var err = CodecMessage.buffer()
                        let rc = tk_png_rows_next(rows, row.baseAddress, row.count, &err)
                        return rc == 0 ? nil : CodecMessage.text(err)
                    }, consume: consume)
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
            // libpng never stops on a warning (0 above): the rule is `failsOn(warning:)`.
            if options.failsOn(warning: warning) { throw .warning(path: path, reason: warning) }
            return ImageDecoders.StreamedDecode(warnings: warning.isEmpty ? [] : [warning], color: color.outcome)
        }
    }
}
