// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
@_spi(Fuzzing) import ThumbKit

/// The PNG fast path (libdeflate's inflate, ThumbKit's unfiltering) against libpng's own reading
/// of the same bytes: the same rows, the same warning, the same failure, whichever path the fast
/// read took, with warnings allowed and fatal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGFast(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    for failOnWarning in [false, true] {
        var fast = PNGRowsReading(bytes, fastPath: true, failOnWarning: failOnWarning)
        let libpng = PNGRowsReading(bytes, fastPath: false, failOnWarning: failOnWarning)
        precondition(!libpng.tookFastPath, "The libpng reading took the fast path.")
        fast.tookFastPath = false
        precondition(fast == libpng, "The fast path's rows, warning or failure differ from libpng's.")
    }
    return 0
}

exit(FuzzInput.run(fuzzPNGFast))
