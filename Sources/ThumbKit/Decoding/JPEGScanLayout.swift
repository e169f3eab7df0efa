// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The marker structure of a whole JPEG file: its frame header, every other segment and every
/// scan (header plus the byte range of its entropy-coded data), in file order, found by cheap
/// byte scanning without decoding anything.
///
/// Strict by design: it is the first step of the progressive fast path, which must fall back to
/// libjpeg's own decode whenever a file is not plainly well-formed. So the initialiser fails on
/// anything irregular: no EOI, a second SOI or frame, a lossless, hierarchical or arithmetic
/// frame, DNL, a marker libjpeg does not expect, a bad segment length, a scan before the frame,
/// a scan naming an unknown component. Never reads outside `bytes`. Made once per source, by
/// `JPEGMarkers`.
struct JPEGScanLayout {
    /// One frame component (SOF).
    struct Component: Equatable {
        /// The component identifier scans refer to.
        var id: UInt8
        /// Horizontal and vertical sampling factors, 1...4.
        var h: Int
        var v: Int
        /// Quantisation table slot, 0...3.
        var quantTable: Int
    }

    /// The frame header.
    struct Frame {
        /// 0xC0 baseline, 0xC1 extended sequential, 0xC2 progressive (all Huffman-coded).
        let marker: UInt8
        let precision: Int
        let width: Int
        let height: Int
        let components: [Component]
        /// The largest sampling factors.
        let maxH: Int
        let maxV: Int
        /// MCUs across and down in an interleaved scan.
        let mcusPerRow: Int
        let mcuRows: Int

        init(marker: UInt8, precision: Int, width: Int, height: Int, components: [Component]) {
            self.marker = marker
            self.precision = precision
            self.width = width
            self.height = height
            self.components = components
            maxH = components.map(\.h).max() ?? 1
            maxV = components.map(\.v).max() ?? 1
            mcusPerRow = (width + 8 * maxH - 1) / (8 * maxH)
            mcuRows = (height + 8 * maxV - 1) / (8 * maxV)
        }

        /// Blocks across and down that hold image data for component `c` (libjpeg's
        /// width_in_blocks / height_in_blocks): what a scan of that component alone codes.
        func blocksWide(_ c: Int) -> Int {
            let samples = (width * components[c].h + maxH - 1) / maxH
            return (samples + 7) / 8
        }

        func blocksHigh(_ c: Int) -> Int {
            let samples = (height * components[c].v + maxV - 1) / maxV
            return (samples + 7) / 8
        }

        /// The blocks of every component together (what one pass over the image visits).
        var blockCount: Int { components.indices.reduce(0) { $0 + blocksWide($1) * blocksHigh($1) } }

        /// Blocks across and down of component `c` padded to whole MCUs (interleaved scans
        /// also code these padding blocks).
        func paddedBlocksWide(_ c: Int) -> Int { mcusPerRow * components[c].h }
        func paddedBlocksHigh(_ c: Int) -> Int { mcuRows * components[c].v }
    }

    /// One scan: its header fields and where its entropy-coded data lies.
    struct Scan {
        /// Indices into `Frame.components`, in scan order.
        var components: [Int]
        /// DC and AC Huffman table slots, per scan component.
        var dcTables: [Int]
        var acTables: [Int]
        /// Spectral selection start and end (zigzag indices) and successive approximation.
        var ss: Int
        var se: Int
        var ah: Int
        var al: Int
        /// The SOS segment, from its 0xFF to the end of its header.
        var header: Range<Int>
        /// The entropy-coded data (restart markers included), up to the next marker's 0xFF.
        var data: Range<Int>
    }

    /// Everything between SOI and EOI, in order.
    enum Part {
        /// A marker segment other than SOF and SOS (tables, DRI, APPn, COM), from its 0xFF.
        case segment(marker: UInt8, bytes: Range<Int>)
        /// The frame header segment, from its 0xFF.
        case frame(Range<Int>)
        /// A scan.
        case scan(Scan)
    }

    let bytes: [UInt8]
    let frame: Frame
    let parts: [Part]

    /// The work of reading the scans `walked` selects, in passes: the blocks they visit (every
    /// block of each scan's components) over the image's blocks. libjpeg gives up past
    /// `TK_JPEG_MAX_SCAN_PASSES` (jpeg_shim.c); the Swift scan loops hold to the same bound.
    func blockPasses(walking walked: (Scan) -> Bool) -> Double {
        let blocks = frame.components.indices.map { frame.blocksWide($0) * frame.blocksHigh($0) }
        let total = frame.blockCount
        guard total > 0 else { return 0 }
        var visits = 0
        for case .scan(let scan) in parts where walked(scan) {
            visits += scan.components.reduce(0) { $0 + blocks[$1] }
        }
        return Double(visits) / Double(total)
    }

    /// Walks `bytes`; nil when the file is not a plainly well-formed Huffman-coded JPEG.
    init?(_ bytes: [UInt8]) {
        HeaderParses.record()
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var parts: [Part] = []
        var frame: Frame?
        var i = 2
        while true {
            guard i + 1 < bytes.count, bytes[i] == 0xFF else { return nil }  // lost sync or truncated
            var start = i
            i += 1
            while i < bytes.count, bytes[i] == 0xFF {  // fill bytes
                start = i
                i += 1
            }
            guard i < bytes.count else { return nil }
            let marker = bytes[i]
            i += 1
            if marker == 0xD9 { break }  // EOI: whatever follows is ignored, as libjpeg does
            guard Self.hasLength(marker), i + 2 <= bytes.count else { return nil }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, length <= bytes.count - i else { return nil }
            let payload = (i + 2)..<(i + length)
            i += length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard frame == nil, let parsed = Self.parseFrame(marker, bytes[payload]) else { return nil }
                frame = parsed
                parts.append(.frame(start..<i))
            case 0xDA:
                guard let frame, var scan = Self.parseScan(bytes[payload], frame: frame) else { return nil }
                scan.header = start..<i
                let end = Self.endOfEntropyData(bytes, from: i)
                scan.data = i..<end
                parts.append(.scan(scan))
                i = end
            default:
                parts.append(.segment(marker: marker, bytes: start..<i))
            }
        }
        guard let frame, parts.contains(where: { if case .scan = $0 { true } else { false } }) else { return nil }
        self.bytes = bytes
        self.frame = frame
        self.parts = parts
    }

    /// Markers with a length field that may appear between SOI and EOI in a Huffman-coded
    /// sequential or progressive file: SOF0–2, DHT, DQT, DRI, SOS, APPn, COM. Everything else
    /// (other SOFs, DAC, DNL, stray RSTn, SOI, TEM, reserved codes) is a reason to fall back.
    private static func hasLength(_ marker: UInt8) -> Bool {
        switch marker {
        case 0xC0, 0xC1, 0xC2, 0xC4, 0xDA, 0xDB, 0xDD, 0xFE: return true
        case 0xE0...0xEF: return true
        default: return false
        }
    }

    /// A frame header from its marker (0xC0–0xC2) and payload; nil when libjpeg would refuse it
    /// or it is not an 8-bit frame of 1–4 components.
    static func parseFrame(_ marker: UInt8, _ p: ArraySlice<UInt8>) -> Frame? {
        let b = Array(p)
        guard b.count >= 6 else { return nil }
        let precision = Int(b[0])
        let height = Int(b[1]) << 8 | Int(b[2])
        let width = Int(b[3]) << 8 | Int(b[4])
        let count = Int(b[5])
        guard precision == 8, width > 0, height > 0, (1...4).contains(count), b.count == 6 + 3 * count else {
            return nil
        }
        var components: [Component] = []
        for k in 0..<count {
            let id = b[6 + 3 * k]
            let h = Int(b[7 + 3 * k] >> 4)
            let v = Int(b[7 + 3 * k] & 15)
            let tq = Int(b[8 + 3 * k])
            guard (1...4).contains(h), (1...4).contains(v), tq <= 3, !components.contains(where: { $0.id == id }) else {
                return nil
            }
            components.append(Component(id: id, h: h, v: v, quantTable: tq))
        }
        return Frame(marker: marker, precision: precision, width: width, height: height, components: components)
    }

    private static func parseScan(_ p: ArraySlice<UInt8>, frame: Frame) -> Scan? {
        let b = Array(p)
        guard let n = b.first.map(Int.init), (1...4).contains(n), b.count == 4 + 2 * n else { return nil }
        var scan = Scan(
            components: [], dcTables: [], acTables: [], ss: 0, se: 0, ah: 0, al: 0, header: 0..<0, data: 0..<0)
        for k in 0..<n {
            let id = b[1 + 2 * k]
            guard let c = frame.components.firstIndex(where: { $0.id == id }), !scan.components.contains(c) else {
                return nil
            }
            let td = Int(b[2 + 2 * k] >> 4)
            let ta = Int(b[2 + 2 * k] & 15)
            guard td <= 3, ta <= 3 else { return nil }
            scan.components.append(c)
            scan.dcTables.append(td)
            scan.acTables.append(ta)
        }
        scan.ss = Int(b[1 + 2 * n])
        scan.se = Int(b[2 + 2 * n])
        scan.ah = Int(b[3 + 2 * n] >> 4)
        scan.al = Int(b[3 + 2 * n] & 15)
        return scan
    }

    /// The index of the 0xFF that starts the first marker after `from` other than a stuffed
    /// 0xFF00 or a restart marker, or `bytes.count` when there is none. (memchr: this scans every
    /// byte of every scan, AC scans included, and runs several times faster than a Swift loop.)
    private static func endOfEntropyData(_ bytes: [UInt8], from: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var i = from
            while i < buffer.count, let found = memchr(base + i, 0xFF, buffer.count - i) {
                let ff = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard ff + 1 < buffer.count else { return ff }
                let next = buffer[ff + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    i = ff + 2
                    continue
                }
                return ff
            }
            return buffer.count
        }
    }
}
