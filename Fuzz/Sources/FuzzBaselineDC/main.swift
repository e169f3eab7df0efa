// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
@_spi(Fuzzing) import ThumbKit

/// The baseline JPEG fast path at 1/8 on hostile bytes, against libjpeg as the oracle: either
/// the fast path declines (and the file is decoded by libjpeg as before), or libjpeg reads the
/// file without a warning and its 1/8 decode is byte-identical to the fast path's pixels.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaselineDC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    precondition(
        ImageDecoders.baselineFastPathAgreesWithLibjpeg(bytes),
        "The baseline fast path answered differently from libjpeg's 1/8 decode.")
    return 0
}

exit(FuzzInput.run(fuzzBaselineDC))
