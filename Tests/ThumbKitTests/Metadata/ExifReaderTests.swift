// SPDX-License-Identifier: Apache-2.0
import Testing
import ThumbKitTestSupport

@testable import ThumbKit

/// The EXIF reader on well-formed data in both byte orders, and on hostile bytes, which may hide
/// the orientation but must never crash or read past the buffer (Swift traps if it does).
struct ExifReaderTests {
    /// A TIFF structure whose IFD0 holds `entries` (tag, type, count, value) after `padding`
    /// bytes, in either byte order. Values are stored in the first bytes of the 4-byte field.
    static func tiff(
        littleEndian: Bool, entries: [(UInt16, UInt16, UInt32, UInt32)], ifdOffset: UInt32 = 8,
        entryCount: UInt16? = nil, nextIFD: UInt32 = 0
    ) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let low = u16(UInt16(v & 0xFFFF))
            let high = u16(UInt16(v >> 16))
            return littleEndian ? low + high : high + low
        }
        var out: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        out += u16(42) + u32(ifdOffset)
        while out.count < Int(min(ifdOffset, 64)) { out.append(0) }
        out += u16(entryCount ?? UInt16(entries.count))
        for (tag, type, count, value) in entries {
            out += u16(tag) + u16(type) + u32(count)
            out += type == 3 ? u16(UInt16(value)) + [0, 0] : u32(value)
        }
        return out + u32(nextIFD)
    }

    /// A minimal JPEG: SOI, then the given segments (marker, payload), then EOI.
    static func jpeg(_ segments: [(UInt8, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in segments {
            let length = payload.count + 2
            out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return out + [0xFF, 0xD9]
    }

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    @Test(arguments: [true, false], ExifOrientation.allCases)
    func orientationIsReadInBothByteOrders(_ littleEndian: Bool, _ orientation: ExifOrientation) {
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (0x010F, 2, 4, 0x0041_4243),  // Make, inline ASCII
            (0x0112, 3, 1, UInt32(orientation.rawValue)),
            (0x011A, 5, 1, 200),  // XResolution, an offset we never follow
        ]
        let tiff = Self.tiff(littleEndian: littleEndian, entries: entries)
        #expect(ExifReader.orientation(inTIFF: tiff[...]) == orientation)
        let jpeg = Self.jpeg([(0xE0, Array("JFIF".utf8) + [0]), (0xE1, Self.exifHeader + tiff)])
        #expect(ExifReader.orientation(inJPEG: jpeg) == orientation)
    }

    @Test func xmpSegmentBeforeExifIsSkipped() {
        let tiff = Self.tiff(littleEndian: false, entries: [(0x0112, 3, 1, 6)])
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta/>".utf8)
        let jpeg = Self.jpeg([(0xE1, xmp), (0xE1, Self.exifHeader + tiff)])
        #expect(ExifReader.orientation(inJPEG: jpeg) == .right)
    }

    @Test func exifAfterTheFirstScanIsIgnored() {
        let tiff = Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 8)])
        var jpeg = Self.jpeg([(0xDA, [1, 1, 0, 0, 63, 0])])
        jpeg.removeLast(2)
        jpeg += [0x12, 0x34] + Self.jpeg([(0xE1, Self.exifHeader + tiff)]).dropFirst(2)
        #expect(ExifReader.orientation(inJPEG: jpeg) == nil)
    }

    @Test func longOrientationFromLaxWritersIsAccepted() {
        let tiff = Self.tiff(littleEndian: true, entries: [(0x0112, 4, 1, 3)])
        #expect(ExifReader.orientation(inTIFF: tiff[...]) == .down)
    }

    @Test(arguments: [0, 9, 0xFFFF])
    func outOfRangeValueIsIgnored(_ value: Int) {
        let tiff = Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, UInt32(value))])
        #expect(ExifReader.orientation(inTIFF: tiff[...]) == nil)
    }

    @Test func hostileIFDsAreIgnoredWithoutReadingPastTheEnd() {
        let hostile: [[UInt8]] = [
            // IFD0 offset far past the end, and exactly at the end.
            Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 6)], ifdOffset: 0xFFFF_FFF0),
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8],
            // 65535 entries declared, one present: the one present is still found...
            Self.tiff(littleEndian: true, entries: [(0x0100, 3, 1, 1)], entryCount: 0xFFFF),
            // ...IFD0 pointing at itself as the next IFD (a loop), with no orientation.
            Self.tiff(littleEndian: true, entries: [(0x0100, 3, 1, 1)], nextIFD: 8),
            // Orientation with a huge count, so its value would live at an offset.
            Self.tiff(littleEndian: true, entries: [(0x0112, 3, 0xFFFF_FFFF, 6)]),
            // Unknown type.
            Self.tiff(littleEndian: true, entries: [(0x0112, 99, 1, 6)]),
            // Bad magic and short headers.
            [0x49, 0x49, 43, 0, 8, 0, 0, 0], [0x49, 0x49, 42], [0x4D], [],
        ]
        for bytes in hostile {
            #expect(ExifReader.orientation(inTIFF: bytes[...]) == nil, "\(bytes.prefix(16))")
            #expect(ExifReader.orientation(inJPEG: Self.jpeg([(0xE1, Self.exifHeader + bytes)])) == nil)
        }
        // With a large declared count, entries that are really there still count.
        let lying = Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 5)], entryCount: 0xFFFF)
        #expect(ExifReader.orientation(inTIFF: lying[...]) == .leftMirrored)
    }

    @Test func hostileSegmentLengthsStopTheMarkerWalk() {
        let tiff = Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 6)])
        let good = Self.jpeg([(0xE1, Self.exifHeader + tiff)])
        var tooLong = good
        tooLong[4] = 0xFF  // APP1 length now runs past the end
        var tooShort = good
        tooShort[4] = 0
        tooShort[5] = 1  // length 1 is less than the length field itself
        var lostSync = good
        lostSync[2] = 0x00
        for bytes in [tooLong, tooShort, lostSync, [0xFF, 0xD8], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xFF, 0xFF]] {
            #expect(ExifReader.orientation(inJPEG: bytes) == nil)
        }
        #expect(ExifReader.orientation(inJPEG: good) == .right)
    }

    @Test func everyTruncationOfAValidFileIsSafe() {
        let tiff = Self.tiff(littleEndian: false, entries: [(0x010F, 2, 4, 0), (0x0112, 3, 1, 7)])
        let jpeg = Self.jpeg([(0xE0, [0x4A, 0x46]), (0xE1, Self.exifHeader + tiff)])
        var found = 0
        for length in 0...jpeg.count {
            let result = ExifReader.orientation(inJPEG: Array(jpeg.prefix(length)))
            #expect(result == nil || result == .rightMirrored)
            if result != nil { found += 1 }
        }
        // Only prefixes that still hold the whole APP1 segment can give the answer.
        #expect(found == 3)
    }

    @Test func randomBytesNeverCrashTheReader() {
        var rng = SplitMix64(seed: 0x5EED)
        let tiff = Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 6), (0x0110, 2, 8, 40)])
        for _ in 0..<2000 {
            // Random corruption of a valid file hits far more paths than pure noise.
            var jpeg = Self.jpeg([(0xE1, Self.exifHeader + tiff)])
            for _ in 0..<Int(rng.next() % 4 + 1) {
                jpeg[Int(rng.next() % UInt64(jpeg.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            let result = ExifReader.orientation(inJPEG: jpeg)
            #expect(result == nil || ExifOrientation.allCases.contains(result!))
            _ = ExifReader.orientation(inPNG: jpeg)
            _ = ExifReader.orientation(inTIFF: jpeg.dropFirst(12))
        }
    }

    @Test func pngEXIfChunkIsRead() {
        let tiff = Self.tiff(littleEndian: true, entries: [(0x0112, 3, 1, 8)])
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let n = UInt32(data.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
                + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
        #expect(ExifReader.orientation(inPNG: signature + ihdr + chunk("eXIf", tiff) + chunk("IEND", [])) == .left)
        #expect(ExifReader.orientation(inPNG: signature + ihdr + chunk("IDAT", [0]) + chunk("eXIf", tiff)) == nil)
        var lying = signature + ihdr + chunk("eXIf", tiff)
        lying[8 + 25 + 2] = 0xFF  // eXIf length past the end
        #expect(ExifReader.orientation(inPNG: lying) == nil)
    }

    @Test(.needsCorpus, .tags(.corpus)) func pngSuiteEXIfSampleReadsAsUp() throws {
        // exif2c08.png carries a big-endian eXIf chunk with orientation 1.
        guard TestCorpus.requireCorpus() else { return }
        let data = try TestCorpus.bytes(of: "pngsuite/exif2c08.png")
        #expect(ExifReader.orientation(inPNG: data) == .up)
    }
}

/// A tiny deterministic generator, so a failure reproduces.
fileprivate struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
