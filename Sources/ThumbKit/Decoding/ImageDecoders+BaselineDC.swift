// SPDX-License-Identifier: Apache-2.0
extension ImageDecoders.JPEG {
    /// A sequential (baseline or extended, Huffman, 8-bit) JPEG decoded at DCT scale 1/8 from
    /// only the coefficients libjpeg's scaled IDCTs read, pixel-identical to libjpeg's own decode
    /// at 1/8; nil when the file is not plainly well-formed (the caller then decodes it as usual).
    ///
    /// libjpeg still Huffman-decodes every AC symbol of such a file at 1/8. Here a component
    /// with a 1×1 IDCT keeps its DC only and its AC symbols are skipped (one table lookup each
    /// for most), and one with a 2×2 IDCT (the chroma of 4:2:0) keeps the 25 coefficients that
    /// IDCT reads (`JPEGProgressiveCoefficients.keptPositions`). Gray, 4:4:4, 4:2:2, 4:4:0,
    /// 4:1:1 and 4:2:0 files then become pixels here (`.direct`, `JPEGScaledPixels`); any other
    /// layout is re-coded as a small sequential JPEG that libjpeg decodes at 1/8 through its
    /// usual IDCT, upsampling and colour conversion (`.transcoded`, `JPEGTranscoder`).
    ///
    /// With `directOnly` (what the decoder asks for) only the `.direct` layouts are taken:
    /// re-coding for libjpeg costs more than the skipped AC symbols save (measured on the bench
    /// photos: 4:2:2 0.76× and 4:2:0 0.58× the speed of libjpeg's own decode); the tests still
    /// check the other layouts.
    ///
    /// All or nothing: any irregularity libjpeg would warn about or guess at gives nil (see
    /// `JPEGProgressiveCoefficients.decodeSequential`), and so does a libjpeg warning on the
    /// re-coded stream. Nil too once `deadline` has passed, or when the kept coefficients would
    /// take more than `maxBytes`; the caller checks the deadline before it falls back. A file with
    /// restart markers is decoded on up to `threads` threads.
    static func decodeBaselineAtOneEighth(
        _ source: ImageSource, deadline: Deadline = .never, maxBytes: Int = .max, directOnly: Bool = false,
        threads: Int = 1
    ) -> (pixels: [UInt8], route: ProgressiveRoute)? {
        guard let info = source.jpeg, !info.headerWarned, let markers = info.markers, let sof = markers.frame,
            sof.marker == 0xC0 || sof.marker == 0xC1,
            !directOnly || JPEGScaledPixels.handles(sof.frame, colorSpace: info.colorSpace),
            let layout = markers.layout
        else { return nil }
        let frame = layout.frame
        let kept = frame.components.map {
            JPEGProgressiveCoefficients.keptPositions(idctSize: idctSizeAtOneEighth($0, frame: frame))
        }
        // A 4×4 or larger IDCT (unusual sampling) reads too much to be worth it.
        guard kept.allSatisfy({ $0.count <= 25 }),
            let coefficients = JPEGProgressiveCoefficients.decodeSequential(
                layout, kept: kept, deadline: deadline, maxBytes: maxBytes, threads: threads)
        else { return nil }
        if let pixels = JPEGScaledPixels.rgba(coefficients, frame: frame, colorSpace: info.colorSpace) {
            return (pixels, .direct)
        }
        guard let stream = JPEGTranscoder.transcode(coefficients, layout: layout),
            let pixels = libjpegDecode(
                stream, width: frame.width, height: frame.height, scaleNumerator: 1,
                blockSmoothing: false, failOnWarning: true, deadline: deadline)
        else { return nil }
        return (pixels, .transcoded)
    }
}
