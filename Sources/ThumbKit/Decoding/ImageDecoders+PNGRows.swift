import CThumbKit

extension ImageDecoders.PNG {
    /// Decodes a non-interlaced PNG one RGBA8 row at a time, top-down, handing each row to
    /// `consume` (valid only during the call), so the image never has to be in memory whole.
    /// The rows are byte-for-byte those of `decode` (libpng's simplified-API rendering), and
    /// failures and warnings are reported the same way. Returns the warnings.
    ///
    /// - Precondition: the file is not interlaced (`header.isProgressive` is false): an
    ///   interlaced file's later passes fill in earlier rows, so it must be decoded whole.
    static func decodeRows(
        _ data: [UInt8], path: String, header: ImageHeader, options: DecodeOptions,
        consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DecodeError) -> [String] {
        precondition(!header.isProgressive, "Interlaced PNGs cannot be decoded row by row.")
        try options.limits.check(width: header.width, height: header.height, path: path)
        var err = CodecMessage.buffer()
        var warn = CodecMessage.buffer()
        var width: UInt32 = 0
        var height: UInt32 = 0
        // The decoder reads `data` in place: the array must stay put until finish.
        return try data.withUnsafeBufferPointer { (src) throws(DecodeError) -> [String] in
            guard let rows = tk_png_rows_begin(
                src.baseAddress, src.count, options.failOnWarning ? 1 : 0, &width, &height, &warn, &err)
            else {
                throw failure(warning: CodecMessage.text(warn), error: CodecMessage.text(err), options: options, path: path)
            }
            var rowError: String?
            if Int(width) == header.width, Int(height) == header.height {
                var row = [UInt8](repeating: 0, count: header.width * 4)
                row.withUnsafeMutableBufferPointer { row in
                    for _ in 0..<header.height {
                        guard tk_png_rows_next(rows, row.baseAddress, row.count, &err) == 0 else {
                            rowError = CodecMessage.text(err)
                            return
                        }
                        consume(UnsafeBufferPointer(row))
                    }
                }
            } else {
                rowError = "header size \(width)x\(height) differs from \(header.width)x\(header.height)"
            }
            let rc = tk_png_rows_finish(rows, &warn, &err)
            let warning = CodecMessage.text(warn)
            if let rowError {
                throw failure(warning: warning, error: rowError, options: options, path: path)
            }
            guard rc == 0 else {
                throw failure(warning: warning, error: CodecMessage.text(err), options: options, path: path)
            }
            return warning.isEmpty ? [] : [warning]
        }
    }

    /// The error `decode` reports for the same failure: the warning itself when warnings are
    /// fatal, else libpng's message.
    private static func failure(warning: String, error: String, options: DecodeOptions, path: String) -> DecodeError {
        if options.failOnWarning, !warning.isEmpty { return .warning(path: path, reason: warning) }
        return ImageDecoders.codecFailure(error, path: path)
    }
}
