// SPDX-License-Identifier: Apache-2.0
import CThumbKit

extension ImageDecoders.JPEG {
    /// How the progressive fast path produced an image.
    enum ProgressiveRoute: Equatable {
        /// DC scans decoded here and turned into pixels here (gray and 4:4:4 YCbCr files).
        case direct
        /// DC scans decoded here and re-coded as a small sequential JPEG for libjpeg.
        case transcoded
        /// libjpeg decoded a copy of the file without the scans the output cannot use.
        case filtered
    }

    /// A progressive JPEG decoded at DCT scale 1/8 from only the scans that reach the output,
    /// pixel-identical to libjpeg's decode of the whole file at 1/8 with block smoothing off;
    /// nil when the file is not plainly well-formed (the caller then decodes it as usual).
    ///
    /// At 1/8 libjpeg gives each component an IDCT of 1×1, 2×2 or 4×4 (it scales a subsampled
    /// component's IDCT up rather than upsample it: `jpeg_calc_output_dimensions`). A 1×1 IDCT
    /// reads only the DC coefficient, so when every component has one (4:4:4, 4:2:2, 4:4:0 and
    /// gray files) the DC scans are all that matter: they are decoded here (2 bytes a block), then
    /// either turned into pixels here when libjpeg would only replicate them (gray, 4:4:4,
    /// 4:2:2, 4:4:0 and 4:1:1 YCbCr: `.direct`, see `JPEGScaledPixels`), or re-coded as a
    /// sequential JPEG that libjpeg decodes in one pass with almost no memory (`.transcoded`).
    /// Otherwise (4:2:0: the chroma IDCT is 2×2 and reads AC coefficients) libjpeg gets the file
    /// minus the AC scans of the 1×1 components (`.filtered`), which still saves most of the
    /// entropy decoding but not libjpeg's whole-image coefficient buffer.
    ///
    /// Block smoothing stays off: it invents AC (and, in libjpeg-turbo 2.1, DC) values for
    /// coefficients a scan has not sent yet, which would make a stream without AC scans differ
    /// from the whole file. For a complete file it changes nothing (every coefficient is final),
    /// so the normal 1/8 decode of progressive files turns it off too and both paths agree.
    ///
    /// Any libjpeg warning on the reduced stream also means nil: the whole file is then decoded
    /// normally and reports its warnings as usual. Nil too once `deadline` has passed (checked in
    /// the scan loops and by libjpeg), or when the DC coefficients would take more than
    /// `maxBytes`: the caller checks both before it falls back. The layout and colour space are
    /// the source's (`JPEGMarkers`), not read again.
    static func decodeProgressiveAtOneEighth(
        _ source: ImageSource, deadline: Deadline = .never, maxBytes: Int = .max
    ) -> (pixels: [UInt8], route: ProgressiveRoute)? {
        guard let info = source.jpeg, let layout = info.markers?.layout, layout.frame.marker == 0xC2 else {
            return nil
        }
        // libjpeg gives up after maxScans scans (jpeg_shim.c); let it say so.
        guard layout.parts.lazy.filter({ if case .scan = $0 { true } else { false } }).count <= maxScans else {
            return nil
        }
        let frame = layout.frame
        let sizes = frame.components.map { idctSizeAtOneEighth($0, frame: frame) }
        if sizes.allSatisfy({ $0 == 1 }) {
            guard let dc = JPEGProgressiveCoefficients.decode(layout, deadline: deadline, maxBytes: maxBytes)
            else { return nil }
            if let pixels = JPEGScaledPixels.rgba(dc, frame: frame, colorSpace: info.colorSpace) {
                return (pixels, .direct)
            }
            guard let stream = JPEGTranscoder.transcode(dc, layout: layout),
                let pixels = libjpegDecode(
                    stream, width: frame.width, height: frame.height, scaleNumerator: 1,
                    blockSmoothing: false, failOnWarning: true, deadline: deadline)
            else { return nil }
            return (pixels, .transcoded)
        }
        let stream = filteredStream(
            layout,
            keep: { scan in
                scan.ss == 0 || scan.components.contains { sizes[$0] > 1 }
            })
        guard
            let pixels = libjpegDecode(
                stream, width: frame.width, height: frame.height, scaleNumerator: 1,
                blockSmoothing: false, failOnWarning: true, deadline: deadline)
        else { return nil }
        return (pixels, .filtered)
    }

    /// The whole-image coefficient storage a progressive file needs at `scaleNumerator`/8:
    /// libjpeg's (`libjpegCoefficientBytes`), or the kept coefficients' (2 bytes each, and 8
    /// bytes of flags a block) when `decodeProgressiveFast` decodes them at 2/8 or 3/8, or
    /// nothing when the DC path serves it (1/8 with a 1×1 IDCT for every component); 0 for
    /// sequential files, which libjpeg decodes a row of MCUs at a time. From the frame header the
    /// source read (`JPEGMarkers.frame`).
    static func coefficientBufferBytes(_ source: ImageSource, scaleNumerator: Int) -> Int {
        guard let sof = source.jpeg?.markers?.frame, [0xC2, 0xC6, 0xCA, 0xCE].contains(sof.marker) else { return 0 }
        let frame = sof.frame
        if scaleNumerator == 1 && sof.marker == 0xC2
            && frame.components.allSatisfy({ idctSizeAtOneEighth($0, frame: frame) == 1 })
        {
            return 0
        }
        let libjpeg = libjpegCoefficientBytes(frame)
        guard sof.marker == 0xC2, reducedScaleNumerators.contains(scaleNumerator), libjpeg >= reducedMinimumBufferBytes
        else { return libjpeg }
        return frame.components.indices.reduce(0) { total, c in
            let size = idctSize(frame.components[c], frame: frame, scaleNumerator: scaleNumerator)
            let perBlock = 8 + 2 * JPEGProgressiveCoefficients.keptPositions(idctSize: size).count
            return total + frame.paddedBlocksWide(c) * frame.paddedBlocksHigh(c) * perBlock
        }
    }

    /// Throws `.overLimit` when a progressive file's coefficient buffers at `scaleNumerator`/8
    /// (`coefficientBufferBytes`, from the header) would exceed `limits.coefficientBudgetBytes`.
    static func checkCoefficientMemory(
        _ source: ImageSource, _ scaleNumerator: Int, _ limits: ImageLimits
    ) throws(DecodeError) {
        let bytes = coefficientBufferBytes(source, scaleNumerator: scaleNumerator)
        guard bytes <= limits.coefficientBudgetBytes else {
            throw .overLimit(
                path: source.path,
                reason: "its coefficient buffers need \(bytes) bytes, over the \(limits.coefficientBudgetBytes) "
                    + "the pixel limit allows")
        }
    }

    /// The scan cap of the C decoders, TK_JPEG_MAX_SCANS in CThumbKit.h (defined only there).
    static let maxScans = Int(TK_JPEG_MAX_SCANS)

    /// The work cap of the C decoders in passes over the blocks, TK_JPEG_MAX_SCAN_PASSES in
    /// CThumbKit.h (defined only there).
    static let maxScanPasses = Int(TK_JPEG_MAX_SCAN_PASSES)

    /// The IDCT size libjpeg gives `component` at scale 1/8.
    static func idctSizeAtOneEighth(_ component: JPEGScanLayout.Component, frame: JPEGScanLayout.Frame) -> Int {
        idctSize(component, frame: frame, scaleNumerator: 1)
    }

    /// The IDCT size libjpeg gives `component` at scale n/8 (jdmaster.c): n, doubled while it
    /// stays below 8 and the component's subsampling on both axes leaves room for it (libjpeg
    /// scales a subsampled component's IDCT up rather than upsample it).
    static func idctSize(_ component: JPEGScanLayout.Component, frame: JPEGScanLayout.Frame, scaleNumerator n: Int)
        -> Int
    {
        var size = n
        while size < 8, (frame.maxH * n) % (component.h * size * 2) == 0,
            (frame.maxV * n) % (component.v * size * 2) == 0
        {
            size *= 2
        }
        return size
    }

    /// Scales at which a progressive file is decoded from its kept coefficients
    /// (`decodeProgressiveReduced`): the 2×2 and 3×3 IDCTs read 25 and 9 coefficients a block.
    static let reducedScaleNumerators = 2...3

    /// libjpeg's coefficient buffer above which `decodeProgressiveFast` decodes a progressive
    /// file at 2/8 or 3/8 from its kept coefficients. Below it libjpeg is faster (its Huffman
    /// decoding is about as fast as ours, and the re-coding costs extra: 0.65–0.8× libjpeg's
    /// time on 2–4 MP photos); above it the memory saved is what matters, and at those sizes
    /// the two take about the same time (0.8–1.5×: libjpeg's page faults and zeroing grow).
    static let reducedMinimumBufferBytes = 16 << 20

    /// libjpeg's whole-image coefficient buffer for `frame`: 128 bytes a block, MCU-padded.
    static func libjpegCoefficientBytes(_ frame: JPEGScanLayout.Frame) -> Int {
        frame.components.indices.reduce(0) { $0 + frame.paddedBlocksWide($1) * frame.paddedBlocksHigh($1) * 128 }
    }

    /// A progressive JPEG decoded at `scaleNumerator`/8 (2 or 3) from only the coefficients the
    /// reduced IDCTs read: every scan is decoded here, those coefficients kept (26–58 bytes a
    /// block instead of libjpeg's 128), re-coded as a sequential JPEG and decoded by libjpeg at
    /// the same scale. Pixel-identical to libjpeg's decode of the whole file, with or without
    /// block smoothing (only complete files are accepted, for which it changes nothing); nil
    /// on any doubt, and the caller decodes the file as usual. Nil too once `deadline` has passed
    /// or when the kept coefficients would take more than `maxBytes` (the caller checks both).
    static func decodeProgressiveReduced(
        _ source: ImageSource, scaleNumerator: Int, deadline: Deadline = .never, maxBytes: Int = .max
    ) -> [UInt8]? {
        precondition(reducedScaleNumerators.contains(scaleNumerator), "Reduced decoding is for 2/8 and 3/8.")
        guard let layout = source.jpeg?.markers?.layout, layout.frame.marker == 0xC2 else { return nil }
        guard layout.parts.lazy.filter({ if case .scan = $0 { true } else { false } }).count <= maxScans else {
            return nil
        }
        let frame = layout.frame
        let kept = frame.components.map {
            JPEGProgressiveCoefficients.keptPositions(
                idctSize: idctSize($0, frame: frame, scaleNumerator: scaleNumerator))
        }
        guard
            let coefficients = JPEGProgressiveCoefficients.decode(
                layout, kept: kept, deadline: deadline, maxBytes: maxBytes),
            let stream = JPEGTranscoder.transcode(coefficients, layout: layout)
        else { return nil }
        return libjpegDecode(
            stream, width: frame.width, height: frame.height, scaleNumerator: scaleNumerator, blockSmoothing: false,
            failOnWarning: true, deadline: deadline)
    }

    /// The progressive fast paths: at 1/8 `decodeProgressiveAtOneEighth`, at 2/8 and 3/8
    /// `decodeProgressiveReduced`; nil at other scales, on any doubt, once `deadline` has passed,
    /// or over `maxBytes` of coefficients.
    static func decodeProgressiveFast(
        _ source: ImageSource, scaleNumerator: Int, deadline: Deadline = .never, maxBytes: Int = .max
    ) -> [UInt8]? {
        if scaleNumerator == 1 {
            return decodeProgressiveAtOneEighth(source, deadline: deadline, maxBytes: maxBytes)?.pixels
        }
        if reducedScaleNumerators.contains(scaleNumerator), let frame = progressiveFrame(source),
            libjpegCoefficientBytes(frame) >= reducedMinimumBufferBytes
        {
            return decodeProgressiveReduced(
                source, scaleNumerator: scaleNumerator, deadline: deadline, maxBytes: maxBytes)
        }
        return nil
    }

    /// The frame header of a progressive Huffman-coded file (SOF2), as the source read it.
    static func progressiveFrame(_ source: ImageSource) -> JPEGScanLayout.Frame? {
        guard let sof = source.jpeg?.markers?.frame, sof.marker == 0xC2 else { return nil }
        return sof.frame
    }

    /// The file with only the scans `keep` accepts: every segment (tables, restart interval,
    /// markers) stays in place, so each kept scan sees the tables it saw in the file.
    static func filteredStream(_ layout: JPEGScanLayout, keep: (JPEGScanLayout.Scan) -> Bool) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for part in layout.parts {
            switch part {
            case .segment(_, let range), .frame(let range):
                out += layout.bytes[range]
            case .scan(let scan) where keep(scan):
                out += layout.bytes[scan.header]
                out += layout.bytes[scan.data]
            case .scan:
                continue
            }
        }
        out += [0xFF, 0xD9]
        return out
    }

    /// libjpeg's decode of `data` at `scaleNumerator`/8 into RGBA (CMYK files: raw CMYK), or nil
    /// on failure, once `deadline` has passed, or with `failOnWarning` on any warning.
    /// `width`/`height` are the full size.
    static func libjpegDecode(
        _ data: [UInt8], width: Int, height: Int, scaleNumerator: Int, blockSmoothing: Bool, failOnWarning: Bool,
        deadline: Deadline = .never
    ) -> [UInt8]? {
        try? decodeWithLibjpeg(
            data, path: "", options: DecodeOptions(failOnWarning: failOnWarning), width: width, height: height,
            scaleNumerator: scaleNumerator, blockSmoothing: blockSmoothing, deadline: deadline
        ).pixels
    }
}
