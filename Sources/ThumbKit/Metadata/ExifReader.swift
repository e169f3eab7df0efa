// SPDX-License-Identifier: Apache-2.0
/// Finds the EXIF orientation (tag 0x0112 in IFD0) in JPEG, PNG or bare TIFF/EXIF bytes.
///
/// Pure Swift and bounds-checked throughout: every offset and count read from the file is
/// checked against the bytes actually present before it is used, only IFD0 is read (so an IFD
/// chain that loops is never followed), and anything malformed simply yields `nil`. The worst a
/// hostile file can do is hide its orientation.
public enum ExifReader {
    /// The orientation in the first APP1 "Exif" segment before the first scan; `nil` when there is
    /// none, it is malformed, or its value is not 1...8.
    public static func orientation(inJPEG bytes: [UInt8]) -> ExifOrientation? {
        for segment in JPEGSegments(bytes) {
            if segment.marker == 0xDA { return nil }  // scan data: no more metadata
            if segment.marker == 0xE1, segment.payload.starts(with: exifIdentifier) {
                if let found = orientation(inTIFF: segment.payload.dropFirst(exifIdentifier.count)) { return found }
            }
        }
        return nil
    }

    /// The orientation in a PNG `eXIf` chunk before the image data; `nil` when absent or malformed.
    public static func orientation(inPNG bytes: [UInt8]) -> ExifOrientation? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.starts(with: signature) else { return nil }
        var i = signature.count
        while i + 8 <= bytes.count {
            let length = Int(bigEndian32(bytes, at: i))
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length <= bytes.count - i - 8 else { return nil }
            let data = bytes[(i + 8)..<(i + 8 + length)]
            switch type {
            case "eXIf": return orientation(inTIFF: data)
            case "IDAT", "IEND": return nil
            default: i += 8 + length + 4  // data and CRC
            }
        }
        return nil
    }

    /// The orientation in a TIFF structure (the payload of an EXIF segment, starting at its
    /// "II*\0" or "MM\0*" header); `nil` when absent or malformed.
    public static func orientation(inTIFF tiff: ArraySlice<UInt8>) -> ExifOrientation? {
        let reader = TIFFReader(tiff)
        guard let reader, let ifd0 = reader.u32(at: 4) else { return nil }
        guard let entryCount = reader.u16(at: Int(ifd0)) else { return nil }
        // Read only the entries that are really there: a huge count cannot run off the end.
        let firstEntry = Int(ifd0) + 2
        let available = max(0, (reader.count - firstEntry) / 12)
        for n in 0..<min(Int(entryCount), available) {
            let entry = firstEntry + n * 12
            guard reader.u16(at: entry) == orientationTag else { continue }
            let type = reader.u16(at: entry + 2)
            guard reader.u32(at: entry + 4) == 1 else { return nil }  // exactly one value
            let value: Int?
            switch type {
            case 3: value = reader.u16(at: entry + 8).map(Int.init)  // SHORT, the EXIF type
            case 4: value = reader.u32(at: entry + 8).map(Int.init)  // LONG, seen from lax writers
            default: value = nil
            }
            return value.flatMap(ExifOrientation.init(rawValue:))
        }
        return nil
    }

    private static let exifIdentifier: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
    private static let orientationTag: UInt16 = 0x0112

    private static func bigEndian32(_ b: [UInt8], at i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }
}

/// Bounds-checked reads from a TIFF structure in either byte order; offsets are relative to
/// the TIFF header, as EXIF offsets are. Every read returns `nil` rather than leave the bytes.
private struct TIFFReader {
    private let bytes: ArraySlice<UInt8>
    private let littleEndian: Bool

    /// Validates the 8-byte header ("II" or "MM", then 42).
    init?(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        guard bytes.count >= 8 else { return nil }
        let b0 = bytes[bytes.startIndex]
        let b1 = bytes[bytes.startIndex + 1]
        switch (b0, b1) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        guard u16(at: 2) == 42 else { return nil }
    }

    var count: Int { bytes.count }

    func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[bytes.startIndex + offset])
        let b = UInt16(bytes[bytes.startIndex + offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(at offset: Int) -> UInt32? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        return littleEndian ? UInt32(first) | UInt32(second) << 16 : UInt32(first) << 16 | UInt32(second)
    }
}
