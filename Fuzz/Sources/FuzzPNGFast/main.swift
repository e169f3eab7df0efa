// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
@_spi(Fuzzing) import ThumbKit

/// The PNG fast path (libdeflate's inflate, ThumbKit's unfiltering) against libpng's own reading
/// of the same bytes: the same rows, the same warning, the same failure, whichever path the fast
/// read took, with warnings allowed and fatal. Both read under a 4 MP limit: the check keeps
/// every row of both readings, and libFuzzer's 2 GB memory limit must hold them (a 65 KB input
/// that declared 460 MP ran it out of memory).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGFast(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let limits = ImageLimits(maxPixels: 1 << 22)
    for failOnWarning in [false, true] {
        var fast = PNGRowsReading(bytes, fastPath: true, failOnWarning: failOnWarning, limits: limits)
        let libpng = PNGRowsReading(bytes, fastPath: false, failOnWarning: failOnWarning, limits: limits)
        precondition(!libpng.tookFastPath, "The libpng reading took the fast path.")
        fast.tookFastPath = false
        precondition(fast == libpng, "The fast path's rows, warning or failure differ from libpng's.")
    }
    return 0
}

exit(FuzzInput.run(fuzzPNGFast))
