// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
import ThumbKit

/// Header read of PNG, JPEG, WebP and HEIC/AVIF bytes (libpng's low-level reader up to IDAT,
/// libjpeg's marker reader up to SOS, the EXIF orientation of APP1 / eXIf, libwebp + demux,
/// libheif). Any outcome but a crash is fine; a
/// header that claims success must describe a non-empty image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let header = try? ImageDecoders.readHeader(bytes, path: "fuzz") {
        precondition(header.width > 0 && header.height > 0, "A header that reads must have a size.")
    }
    return 0
}

exit(FuzzInput.run(fuzzHeader))
