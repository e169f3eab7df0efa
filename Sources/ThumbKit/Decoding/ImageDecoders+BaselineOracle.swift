// SPDX-License-Identifier: Apache-2.0
extension ImageDecoders {
    /// The baseline fast path's oracle, for the `baseline-dc` fuzz target (SPI: not API): true
    /// when `bytes` is not a JPEG within the default limits, when the fast path at 1/8
    /// (`JPEG.decodeBaselineAtOneEighth`) declines it, or when its pixels equal libjpeg's own
    /// 1/8 decode of the file and libjpeg reads the file without a warning. False means the fast
    /// path answered where it must not have.
    @_spi(Fuzzing)
    public static func baselineFastPathAgreesWithLibjpeg(_ bytes: [UInt8]) -> Bool {
        let limits = ImageLimits()
        guard let source = try? ImageSource(bytes, path: "fuzz"), let info = source.jpeg,
            (try? limits.check(width: info.header.width, height: info.header.height, path: "fuzz")) != nil,
            let fast = JPEG.decodeBaselineAtOneEighth(source, maxBytes: limits.coefficientBudgetBytes)
        else { return true }
        let reference = JPEG.libjpegDecode(
            bytes, width: info.header.width, height: info.header.height, scaleNumerator: 1, blockSmoothing: true,
            failOnWarning: true)
        return reference == fast.pixels
    }
}
