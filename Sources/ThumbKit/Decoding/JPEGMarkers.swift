// SPDX-License-Identifier: Apache-2.0
/// The marker structure of a progressive JPEG, parsed once per `ImageSource` and shared by every
/// consumer: the coefficient-memory estimate and check, and the progressive fast paths.
///
/// `frame` is the first frame header before the first scan, read from the header segments
/// alone (cheap; the estimate needs only this, even for a file the strict layout refuses).
/// `layout` is the whole file's `JPEGScanLayout`, walked on first use (it reads every byte of
/// every scan, which a decode at 4/8 or more never needs) and then kept; nil when the file is
/// not a plainly well-formed Huffman-coded JPEG. A class so that copies of the source share it.
final class JPEGMarkers: Sendable {
    /// The first frame header (SOF0–SOF15 but DHT, JPG and DAC) and its marker byte.
    struct FirstFrame: Sendable {
        let marker: UInt8
        let frame: JPEGScanLayout.Frame
    }

    /// The file.
    let bytes: [UInt8]
    /// The first frame header before the first scan; nil when there is none or libjpeg would
    /// refuse it (`JPEGScanLayout.parseFrame`).
    let frame: FirstFrame?
    /// The layout once walked (the outer optional: not walked yet).
    private let walked = Locked<JPEGScanLayout??>(nil)

    /// Reads the frame header of `bytes`; the layout waits for its first use.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        frame = Self.firstFrame(bytes)
    }

    /// The whole file's layout, walked on the first call only (later calls and other threads
    /// get the same value).
    var layout: JPEGScanLayout? {
        walked.withLock { walked in
            if let done = walked { return done }
            let layout = JPEGScanLayout(bytes)
            walked = .some(layout)
            return layout
        }
    }

    /// The first SOF segment of the header: any SOFn marker (0xC0–0xCF but DHT 0xC4, JPG 0xC8
    /// and DAC 0xCC), its payload parsed as a frame header.
    private static func firstFrame(_ bytes: [UInt8]) -> FirstFrame? {
        HeaderParses.record()
        guard
            let sof = JPEGSegments(bytes).first(where: {
                (0xC0...0xCF).contains($0.marker) && $0.marker != 0xC4
                    && $0.marker != 0xC8 && $0.marker != 0xCC
            }),
            let frame = JPEGScanLayout.parseFrame(0xC2, sof.payload)
        else { return nil }
        return FirstFrame(marker: sof.marker, frame: frame)
    }
}
