// SPDX-License-Identifier: Apache-2.0
/// The bounds every imgproxy URL is checked against: the caller passes the server's limits.
package struct ImgproxyLimits: Sendable, Hashable {
    /// The largest width or height a request may ask for, after `dpr` (≥ 1).
    package let maxDimension: Int
    /// The largest `dpr` (imgproxy has no cap; ThumbKit refuses more than this).
    package let maxDPR: Double

    package init(maxDimension: Int = 8192, maxDPR: Double = 8) {
        precondition(maxDimension >= 1 && maxDimension <= 1 << 20, "The dimension limit must be 1...1048576.")
        precondition(maxDPR >= 1 && maxDPR <= 64, "The DPR limit must be 1...64.")
        self.maxDimension = maxDimension
        self.maxDPR = maxDPR
    }
}
