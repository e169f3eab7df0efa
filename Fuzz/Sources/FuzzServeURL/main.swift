// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
import ThumbKitServe

/// `thumbkit serve`'s imgproxy URL code on hostile request targets: the signature split, HMAC
/// checks, the processing-URL parser (options, presets, plain and base64url sources), `Accept`
/// negotiation and the presets file parser. Pure Swift: a bad index or a broken invariant
/// (checked in `_ImgproxyFuzzing`) traps, which is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServeURL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ImgproxyFuzzing.exercise(FuzzInput.bytes(data, size))
    return 0
}

exit(FuzzInput.run(fuzzServeURL))
