// SPDX-License-Identifier: Apache-2.0
import Foundation
import FuzzSupport
import ThumbKit

/// The whole thumbnail path on hostile bytes, as a batch runs it: header, limits, shrink-on-load
/// decode (libjpeg DCT scaling, or libpng's full decode), EXIF orientation, two resizes from the
/// one decode (a 32×32 fill and a 48×40 pad) and a JPEG encode of the first. Default limits, so
/// what is fuzzed is what ships. A decoded image must come out at exactly the requested box.
///
/// `render` streams rows into the resamplers with one thread and decodes whole (then resamples
/// in parallel) with more, so an input of odd length is rendered with two threads: both of the
/// JPEG decoder's sinks meet hostile bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let variants = [
        ResizeOptions(width: 32, height: 32, mode: .fill),
        ResizeOptions(width: 48, height: 40, mode: .pad),
    ]
    let threads = bytes.count % 2 == 0 ? 1 : 2
    guard let rendered = try? Thumbnailer.render(bytes, path: "fuzz", variants: variants, threads: threads) else {
        return 0
    }
    precondition(rendered.images.count == 2, "One image per variant.")
    precondition(rendered.images[1].width == 48 && rendered.images[1].height == 40, "Pad fills the box.")
    let first = rendered.images[0]
    precondition(first.pixels.count == first.width * first.height * 4, "RGBA8 buffer size.")
    _ = try? ImageEncoders.encode(first, options: EncodeOptions(format: .jpeg), path: "fuzz.jpg")
    return 0
}

exit(FuzzInput.run(fuzzDecode))
