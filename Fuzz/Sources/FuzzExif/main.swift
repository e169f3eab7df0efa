// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
import ThumbKit

/// The metadata parsers: the JPEG segment walker, the EXIF orientation in JPEG, PNG and bare
/// TIFF bytes. They are pure Swift, so any read past the buffer traps (a finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    var total = 0
    for segment in JPEGSegments(bytes) {
        total += segment.payload.count
        precondition(segment.payload.startIndex >= 0 && segment.payload.endIndex <= bytes.count, "Segment in bounds.")
    }
    precondition(total <= bytes.count, "Segments never overlap.")
    _ = ExifReader.orientation(inJPEG: bytes)
    _ = ExifReader.orientation(inPNG: bytes)
    _ = ExifReader.orientation(inTIFF: bytes[...])
    // The same bytes behind a JPEG APP1 "Exif" header, so mutations reach the IFD parser.
    if bytes.count <= 65_000 {
        let length = bytes.count + 8
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        jpeg += [0x45, 0x78, 0x69, 0x66, 0, 0] + bytes + [0xFF, 0xD9]
        _ = ExifReader.orientation(inJPEG: jpeg)
    }
    return 0
}

exit(FuzzInput.run(fuzzExif))
