// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

extension ImageComparison {
    /// SSIM and PSNR of one image against a reference, as ``ImageComparison/compare(_:_:)`` returns.
    ///
    /// (Not called `ComparisonResult`: Foundation already has a type of that name.)
    ///
    /// JSON: `{"ssim": 0.93, "psnr": 31.2}`. Identical images have an infinite PSNR, which JSON
    /// cannot spell, so an infinite `psnr` is encoded as `null` and `null` decodes back to
    /// `+infinity`. Readers of the JSON must treat `"psnr": null` as "identical", not "unknown".
    public struct Result: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Mean SSIM over R, G and B (1 = identical); see ``ImageComparison/ssim(_:_:)``.
        public let ssim: Double
        /// PSNR over R, G and B in decibels, `+infinity` when identical; see ``ImageComparison/psnr(_:_:)``.
        public let psnr: Double

        public init(ssim: Double, psnr: Double) {
            self.ssim = ssim
            self.psnr = psnr
        }

        /// True when the two images were equal sample for sample (after compositing over white).
        public var isIdentical: Bool { psnr == .infinity }

        private enum CodingKeys: String, CodingKey {
            case ssim, psnr
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ssim = try container.decode(Double.self, forKey: .ssim)
            // A present `null` is +infinity; a missing key is an error, not "identical".
            psnr =
                try container.decodeNil(forKey: .psnr)
                ? .infinity : container.decode(Double.self, forKey: .psnr)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ssim, forKey: .ssim)
            if psnr.isFinite {
                try container.encode(psnr, forKey: .psnr)
            } else {
                try container.encodeNil(forKey: .psnr)
            }
        }

        /// `ssim 0.9312, psnr 31.20 dB` (or `psnr inf`): for logs, not for parsing.
        public var description: String {
            let p = psnr.isFinite ? String(format: "%.2f dB", psnr) : "inf"
            return String(format: "ssim %.4f, psnr ", ssim) + p
        }
    }
}
