// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
@_spi(Fuzzing) import ThumbKit

/// The baseline JPEG fast path at 1/8 on hostile bytes, against libjpeg as the oracle: either
/// the fast path declines (and the file is decoded by libjpeg as before), or libjpeg reads the
/// file without a warning and its 1/8 decode is byte-identical to the fast path's pixels; and the
/// strict decode (the desktop thumbnailer's) has the same outcome with the fast path as without.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaselineDC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    precondition(
        ImageDecoders.baselineFastPathAgreesWithLibjpeg(bytes),
        "The baseline fast path answered differently from libjpeg's 1/8 decode.")
    precondition(
        ImageDecoders.strictDecodeAgreesWithLibjpeg(bytes),
        "The strict decode with the fast paths differs from libjpeg's alone.")
    return 0
}

exit(FuzzInput.run(fuzzBaselineDC))
