// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Lookup tables between 8-bit samples and the Float working values the resampler uses.
///
/// In the default (gamma-encoded) mode a sample `v` becomes `v / 255`. In linear-light mode it
/// becomes the sRGB electro-optical transfer of `v / 255`, and the result is encoded back with
/// a 16,384-entry table (fine enough that every 8-bit value survives a round trip).
package struct ColorTransfer: Sendable {
    /// Sample → working value, 256 entries.
    let decode: [Float]
    /// Working value in [0, 1] at `encodeScale` steps → 8-bit sample; nil in gamma mode.
    let encode: [UInt8]?
    /// Index multiplier into `encode`.
    let encodeScale: Float

    static let gamma = ColorTransfer(linear: false)
    static let linear = ColorTransfer(linear: true)

    private init(linear: Bool) {
        if linear {
            decode = (0..<256).map { Float(Self.srgbToLinear(Double($0) / 255)) }
            let n = 16_384
            encode = (0...n).map { i in
                let v = Self.linearToSRGB(Double(i) / Double(n)) * 255
                return UInt8(max(0, min(255, v.rounded())))
            }
            encodeScale = Float(n)
        } else {
            decode = (0..<256).map { Float($0) / 255 }
            encode = nil
            encodeScale = 255
        }
    }

    /// The sRGB EOTF (IEC 61966-2-1).
    package static func srgbToLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// The inverse sRGB EOTF.
    static func linearToSRGB(_ v: Double) -> Double {
        v <= 0.003_130_8 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}
