import CThumbKit

extension ImageDecoders.JPEG {
    /// Decodes a JPEG at `scaleNumerator`/8 one RGBA8 row at a time, top-down, handing each row
    /// (ceil(width·n/8) pixels, valid only during the call) to `consume`, so the scaled image
    /// never has to be in memory whole. The rows, the warnings and the failures are exactly
    /// those of `decode(_:path:options:scaleNumerator:)`, progressive fast paths included (their
    /// image, small at these scales, is handed out row by row). Returns the warnings.
    static func decodeRows(
        _ data: [UInt8], path: String, options: DecodeOptions, scaleNumerator: Int,
        consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DecodeError) -> [String] {
        let info = try readHeader(data, path: path)
        let header = info.header
        try options.limits.check(width: header.width, height: header.height, path: path)
        let width = ImageDecoders.scaledLength(header.width, numerator: scaleNumerator)
        let height = ImageDecoders.scaledLength(header.height, numerator: scaleNumerator)
        let progressiveAtOneEighth = scaleNumerator == 1 && header.isProgressive
        if header.isProgressive, !options.failOnWarning,
           var pixels = decodeProgressiveFast(data, scaleNumerator: scaleNumerator) {
            if info.isCMYK { CMYKConversion.convertToRGBA(&pixels, inverted: info.isAdobe) }
            pixels.withUnsafeBufferPointer { all in
                for y in 0..<height { consume(UnsafeBufferPointer(rebasing: all[(y * width * 4)..<((y + 1) * width * 4)])) }
            }
            return []
        }
        var err = CodecMessage.buffer()
        var warn = CodecMessage.buffer()
        var outWidth: UInt32 = 0
        var outHeight: UInt32 = 0
        var warningCount: Int32 = 0
        // The decoder reads `data` in place: the array must stay put until finish.
        return try data.withUnsafeBufferPointer { (src) throws(DecodeError) -> [String] in
            guard let rows = tk_jpeg_rows_begin(
                src.baseAddress, src.count, Int32(scaleNumerator), progressiveAtOneEighth ? 0 : 1,
                options.failOnWarning ? 1 : 0, &outWidth, &outHeight, &warn, &err)
            else {
                throw failure(warning: CodecMessage.text(warn), error: CodecMessage.text(err), options: options, path: path)
            }
            var rowError: String?
            if Int(outWidth) == width, Int(outHeight) == height {
                var row = [UInt8](repeating: 0, count: width * 4)
                for _ in 0..<height {
                    let rc = row.withUnsafeMutableBufferPointer { tk_jpeg_rows_next(rows, $0.baseAddress, $0.count, &err) }
                    guard rc == 0 else {
                        rowError = CodecMessage.text(err)
                        break
                    }
                    if info.isCMYK { CMYKConversion.convertToRGBA(&row, inverted: info.isAdobe) }
                    row.withUnsafeBufferPointer { consume($0) }
                }
            } else {
                rowError = "libjpeg's output size \(outWidth)x\(outHeight) differs from \(width)x\(height)"
            }
            let rc = tk_jpeg_rows_finish(rows, &warningCount, &warn, &err)
            let warning = CodecMessage.text(warn)
            if let rowError { throw failure(warning: warning, error: rowError, options: options, path: path) }
            guard rc == 0 else {
                throw failure(warning: warning, error: CodecMessage.text(err), options: options, path: path)
            }
            var warnings: [String] = []
            if !warning.isEmpty {
                warnings.append(warning)
                if warningCount > 1 { warnings.append("\(warningCount - 1) more libjpeg warnings") }
            }
            return warnings
        }
    }

    /// The error `decode` reports for the same failure: the warning itself when warnings are
    /// fatal, else libjpeg's message.
    private static func failure(warning: String, error: String, options: DecodeOptions, path: String) -> DecodeError {
        if options.failOnWarning, !warning.isEmpty { return .warning(path: path, reason: warning) }
        return ImageDecoders.codecFailure(error, path: path)
    }
}
