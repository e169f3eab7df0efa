// SPDX-License-Identifier: Apache-2.0
import ThumbKit
/// Descriptive statistics for benchmark figures (timings, sizes, quality scores).
public enum Statistics {
    /// Count, extremes, mean, median and 95th percentile of a list of numbers.
    ///
    /// The median and ``p95`` use ``Statistics/percentile(_:of:)``, so the median of an even
    /// count is the mean of the two middle values.
    public struct Summary: Sendable, Hashable, Codable {
        /// Number of values (at least 1).
        public let count: Int
        public let min: Double
        public let max: Double
        /// Arithmetic mean.
        public let mean: Double
        /// 50th percentile.
        public let median: Double
        /// 95th percentile (linear interpolation, see ``Statistics/percentile(_:of:)``).
        public let p95: Double

        /// Summarises `values`, in any order; `nil` when there are none.
        ///
        /// - Precondition: no value is NaN (it has no place in an order).
        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            precondition(!values.contains(where: \.isNaN), "Statistics.Summary cannot order NaN values.")
            let sorted = values.sorted()
            count = sorted.count
            min = sorted[0]
            max = sorted[sorted.count - 1]
            mean = sorted.reduce(0, +) / Double(sorted.count)
            median = Statistics.percentile(50, ofSorted: sorted)
            p95 = Statistics.percentile(95, ofSorted: sorted)
        }
    }

    /// The `p`-th percentile (0...100) of `values`, by linear interpolation between the two
    /// nearest ranks: Hyndman & Fan's definition 7, the default of NumPy's `percentile`, R's
    /// `quantile` and Excel's `PERCENTILE.INC`.
    ///
    /// With the values sorted as x₀ ≤ … ≤ xₙ₋₁ and h = (n − 1)·p / 100, the result is
    /// x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). So p = 0 gives the minimum, p = 100 the
    /// maximum, and p = 50 the median (the mean of the middle two for an even count).
    ///
    /// - Returns: `nil` when `values` is empty.
    /// - Precondition: `p` is in 0...100 and no value is NaN.
    public static func percentile(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        precondition(!values.contains(where: \.isNaN), "Statistics.percentile cannot order NaN values.")
        return percentile(p, ofSorted: values.sorted())
    }

    static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        precondition((0...100).contains(p), "A percentile must be in 0...100.")
        assert(!sorted.isEmpty)
        let h = Double(sorted.count - 1) * p / 100
        let lower = Int(h.rounded(.down))
        let fraction = h - Double(lower)
        guard lower + 1 < sorted.count, fraction > 0 else { return sorted[lower] }
        return sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower])
    }
}
