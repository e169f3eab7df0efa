// SPDX-License-Identifier: Apache-2.0
/// Counts and statistics for a `show` view.
public struct CatalogSummary: Sendable, Hashable, Codable {
    /// Minimum, maximum and mean of a set of numbers.
    public struct Spread: Sendable, Hashable, Codable {
        /// How many values.
        public var count: Int
        /// The smallest.
        public var min: Double
        /// The largest.
        public var max: Double
        /// The mean.
        public var average: Double
        /// The sum.
        public var total: Double

        public init(count: Int, min: Double, max: Double, average: Double, total: Double) {
            self.count = count
            self.min = min
            self.max = max
            self.average = average
            self.total = total
        }
    }

    /// Number of bugs.
    public var bugCount: Int
    /// Number of foods.
    public var foodCount: Int
    /// Number of categories.
    public var categoryCount: Int
    /// Number of output rows.
    public var outputCount: Int
    /// Ratings of all bugs (a bug rated 0 counts as 0); nil when there are no bugs.
    public var ratings: Spread?
    /// Byte sizes of all outputs; nil when there are none.
    public var outputBytes: Spread?

    public init(
        bugCount: Int, foodCount: Int, categoryCount: Int, outputCount: Int, ratings: Spread?,
        outputBytes: Spread?
    ) {
        self.bugCount = bugCount
        self.foodCount = foodCount
        self.categoryCount = categoryCount
        self.outputCount = outputCount
        self.ratings = ratings
        self.outputBytes = outputBytes
    }
}
