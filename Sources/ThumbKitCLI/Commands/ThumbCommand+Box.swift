// SPDX-License-Identifier: Apache-2.0
import ThumbKit

extension ThumbCommand {
    /// Refuses, before any file is read, a box whose side times the largest scale overflows, and
    /// a box that no input could be thumbnailed into within `limits`: with upscaling, a fill,
    /// pad or stretch output is the whole box, so a side over the dimension limit or an area over
    /// the pixel limit; a fit output has one side equal to its box side, so every side over the
    /// dimension limit. The "any" side of `Wx` / `xH` is not a size and is not checked. Each
    /// file's own output is still checked against the limits (`Thumbnailer.render`), which is
    /// what catches a box that only some inputs overflow.
    static func checkBox(
        _ size: ParsedArguments.Size, text: String, resize: ResizeOptions, scales: [Int], limits: ImageLimits
    ) throws(UsageError) {
        let scale = scales.max() ?? 1
        let at = scale == 1 ? "" : " at @\(scale)x"
        func refuse(_ reason: String) -> UsageError {
            .invalidValue(option: "--size", value: text, reason: reason)
        }
        var sides: [Int] = []
        for side in [size.width, size.height] where side != anyHeight {
            let (scaled, overflow) = side.multipliedReportingOverflow(by: scale)
            guard !overflow else { throw refuse("the box\(at) is too large to plan") }
            sides.append(scaled)
        }
        guard resize.upscale, !sides.isEmpty else { return }
        let dimension = "over the dimension limit of \(limits.maxDimension) pixels a side (--max-dimension)"
        if resize.mode == .fit {
            if sides.allSatisfy({ $0 > limits.maxDimension }) { throw refuse("the box\(at) is \(dimension)") }
            return
        }
        if sides.contains(where: { $0 > limits.maxDimension }) { throw refuse("the box\(at) is \(dimension)") }
        let (pixels, overflow) = sides[0].multipliedReportingOverflow(by: sides[sides.count - 1])
        guard !overflow, pixels <= limits.maxPixels else {
            throw refuse(
                "the box\(at) is \(sides[0])x\(sides[sides.count - 1]), over the pixel limit of \(limits.maxPixels) "
                    + "pixels (--max-pixels)")
        }
    }
}
