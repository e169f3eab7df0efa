// SPDX-License-Identifier: Apache-2.0
extension ImageDecoders {
    /// The baseline fast path's oracle, for the `baseline-dc` fuzz target (SPI: not API): true
    /// when `bytes` is not a JPEG within the default limits, when the fast path at 1/8
    /// (`JPEG.decodeBaselineAtOneEighth`) declines it, or when its pixels equal libjpeg's own
    /// 1/8 decode of the file and libjpeg reads the file without a warning; and in every case the
    /// decode on two threads (restart intervals in parallel) gives what the one-thread decode
    /// gives. False means the fast path answered where it must not have, or the threads differ.
    @_spi(Fuzzing)
    public static func baselineFastPathAgreesWithLibjpeg(_ bytes: [UInt8]) -> Bool {
        let limits = ImageLimits()
        guard let source = try? ImageSource(bytes, path: "fuzz"), let info = source.jpeg,
            (try? limits.check(width: info.header.width, height: info.header.height, path: "fuzz")) != nil
        else { return true }
        let answer = JPEG.decodeBaselineAtOneEighth(source, maxBytes: limits.coefficientBudgetBytes)
        let twoThreads = JPEG.decodeBaselineAtOneEighth(source, maxBytes: limits.coefficientBudgetBytes, threads: 2)
        guard twoThreads?.pixels == answer?.pixels else { return false }
        guard let fast = answer else { return true }
        let reference = JPEG.libjpegDecode(
            bytes, width: info.header.width, height: info.header.height, scaleNumerator: 1, blockSmoothing: true,
            failOnWarning: true)
        return reference == fast.pixels
    }
}

extension ImageDecoders {
    /// The strict decoder's oracle, for the `baseline-dc` fuzz target (SPI: not API): true when
    /// the strict decode at 1/8 (`failOnWarning`, as the desktop thumbnailer decodes) has the
    /// same outcome with its fast paths as with libjpeg alone: the same pixels, warnings and
    /// colour, or the same error. Only files the baseline fast path takes are decoded twice
    /// (for the others both decodes are libjpeg's).
    @_spi(Fuzzing)
    public static func strictDecodeAgreesWithLibjpeg(_ bytes: [UInt8]) -> Bool {
        let options = DecodeOptions(failOnWarning: true)
        guard let source = try? ImageSource(bytes, path: "fuzz"), source.jpeg != nil,
            JPEG.decodeBaselineAtOneEighth(
                source, maxBytes: options.limits.coefficientBudgetBytes, directOnly: true) != nil
        else { return true }
        func outcome(fastPaths: Bool) -> Result<DecodedImage, DecodeError> {
            Result { () throws(DecodeError) in
                try JPEG.decode(source, options: options, scaleNumerator: 1, fastPaths: fastPaths)
            }
        }
        switch (outcome(fastPaths: true), outcome(fastPaths: false)) {
        case (.success(let fast), .success(let reference)):
            return fast.buffer.pixels == reference.buffer.pixels && fast.warnings == reference.warnings
                && fast.colorWarnings == reference.colorWarnings && fast.colorProfile == reference.colorProfile
        case (.failure(let fast), .failure(let reference)):
            return fast == reference
        default:
            return false
        }
    }
}
