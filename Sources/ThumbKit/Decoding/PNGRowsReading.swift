// SPDX-License-Identifier: Apache-2.0

/// Every RGBA8 row of a PNG read through the one PNG reader with or without the fast path
/// (``PNGFastRows``), for the checks that the two agree: the tests and the `png-fast` fuzz target.
/// Not for decoding images: use ``ImageDecoders``.
@_spi(Fuzzing)
public struct PNGRowsReading: Equatable, Sendable {
    /// Every row, top-down (each pass in turn for an interlaced file), or the failure.
    public var result: Result<[UInt8], DecodeError>
    /// libpng's first warning ("" when none, or when the read failed).
    public var warning = ""
    /// True when the fast path read the rows (libdeflate's inflate and ThumbKit's unfiltering).
    public var tookFastPath = false

    /// Reads `data` with default `DecodeOptions` but `failOnWarning` and `limits`; `fastPath`
    /// false reads every file through libpng. Every row is kept, so a caller reading hostile
    /// bytes (the fuzz target) gives `limits` a `maxPixels` its memory can hold twice over.
    public init(_ data: [UInt8], fastPath: Bool, failOnWarning: Bool = false, limits: ImageLimits = ImageLimits()) {
        var fast = false
        var pixels: [UInt8] = []
        do throws(DecodeError) {
            let source = try ImageSource(data, path: "png")
            let (width, height) = (source.header.width, source.header.height)
            // As every decode checks before it allocates (`decodeRows` does this for the rows).
            try limits.check(width: width, height: height, path: "png")
            warning = try ImageDecoders.PNG.readRows(
                source, options: DecodeOptions(limits: limits, failOnWarning: failOnWarning), deadline: .never,
                fastPath: fastPath, decoder: { fast = $0 == .libdeflate }
            ) { passes, next in
                var row = [UInt8](repeating: 0, count: width * 4)
                for _ in 0..<passes * height {
                    if let error = row.withUnsafeMutableBufferPointer({ next($0.baseAddress!) }) { return error }
                    pixels += row
                }
                return nil
            }
            result = .success(pixels)
        } catch {
            result = .failure(error)
        }
        tookFastPath = fast
    }
}
