// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders.JPEG {
    /// Decodes a JPEG at `scaleNumerator`/8 one RGBA8 row at a time, top-down, handing each row
    /// (ceil(width·n/8) pixels, valid only during the call) to `consume`, so the scaled image
    /// never has to be in memory whole. The rows (colour-managed, CMYK converted), warnings and
    /// failures are exactly those of `decode(_:options:scaleNumerator:deadline:)`,
    /// progressive fast paths included (their image, small at these scales, is handed out row
    /// by row). Gives up with `.overLimit` once `deadline` has passed.
    static func decodeRows(
        _ source: ImageSource, options: DecodeOptions, scaleNumerator: Int, deadline: Deadline = .never,
        consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DecodeError) -> ImageDecoders.StreamedDecode {
        let start = try begin(source, options: options, scaleNumerator: scaleNumerator, deadline: deadline)
        let (data, path, info) = try jpegParts(source)
        let (header, width, height) = (info.header, start.width, start.height)
        let color = ImageDecoders.colorConversion(data: data, format: .jpeg, kind: info.pixelKind, options: options)
        if var pixels = start.fast {
            color.apply(&pixels)
            pixels.withUnsafeBufferPointer { all in
                for y in 0..<height {
                    consume(UnsafeBufferPointer(rebasing: all[(y * width * 4)..<((y + 1) * width * 4)]))
                }
            }
            return ImageDecoders.StreamedDecode(warnings: [], color: color.outcome, decoder: start.decoder)
        }
        let warnings = try readRows(
            data, path: path, options: options, scaleNumerator: scaleNumerator,
            blockSmoothing: !(scaleNumerator == 1 && header.isProgressive), deadline: deadline
        ) { outWidth, outHeight, next in
            guard outWidth == width, outHeight == height else {
                return "libjpeg's output size \(outWidth)x\(outHeight) differs from \(width)x\(height)"
            }
            return ImageDecoders.pumpRows(
                width: width, height: height, color: color, deadline: deadline, next: next, consume: consume)
        }
        return ImageDecoders.StreamedDecode(warnings: warnings, color: color.outcome, decoder: .libjpeg)
    }

    /// The one libjpeg reader: opens `data` at `scaleNumerator`/8, lets `read` take the rows,
    /// then reads on to the end and turns every failure into a ``DecodeError``.
    ///
    /// `read` gets the output size and a `next` that decodes the next row, top-down, into the
    /// `width * 4` bytes it is given (RGBA, or CMYK for CMYK and YCCK files), returning nil or
    /// libjpeg's message. It returns why it stopped early, or nil when it read every row.
    /// Returns the warnings as log lines. `deadline` is checked by libjpeg's progress monitor.
    static func readRows(
        _ data: [UInt8], path: String, options: DecodeOptions, scaleNumerator: Int, blockSmoothing: Bool,
        deadline: Deadline,
        read: (_ width: Int, _ height: Int, _ next: (UnsafeMutableBufferPointer<UInt8>) -> String?) -> String?
    ) throws(DecodeError) -> [String] {
        var err = CodecMessage.buffer()
        var warn = CodecMessage.buffer()
        var outWidth: UInt32 = 0
        var outHeight: UInt32 = 0
        var warningCount: Int32 = 0
        var blockVisits: UInt64 = 0
        defer { JPEGBlockVisits.record(Int(clamping: blockVisits)) }
        // The decoder reads `data` in place: the array must stay put until finish.
        return try data.withUnsafeBufferPointer { (src) throws(DecodeError) -> [String] in
            guard
                let rows = tk_jpeg_rows_begin(
                    src.baseAddress, src.count, Int32(scaleNumerator), blockSmoothing ? 1 : 0,
                    options.failOnWarning ? 1 : 0, deadline.shimValue, &outWidth, &outHeight, &blockVisits,
                    &warn, &err)
            else {
                throw ImageDecoders.shimFailure(
                    warning: CodecMessage.text(warn), error: CodecMessage.text(err), options: options,
                    deadline: deadline, path: path)
            }
            let rowError = read(Int(outWidth), Int(outHeight)) { row in
                var err = CodecMessage.buffer()
                let rc = tk_jpeg_rows_next(rows, row.baseAddress, row.count, &err)
                return rc == 0 ? nil : CodecMessage.text(err)
            }
            let rc = tk_jpeg_rows_finish(rows, &warningCount, &warn, &err)
            let warning = CodecMessage.text(warn)
            if rowError != nil || rc != 0 {
                throw ImageDecoders.shimFailure(
                    warning: warning, error: rowError ?? CodecMessage.text(err), options: options,
                    deadline: deadline, path: path)
            }
            return warningLines(warning, count: warningCount)
        }
    }
}
