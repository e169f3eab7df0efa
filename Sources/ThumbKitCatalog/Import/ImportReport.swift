// SPDX-License-Identifier: Apache-2.0
/// What an import did, and each record it refused.
public struct ImportReport: Sendable, Hashable {
    /// How many records of one kind were added, changed, or already as the file says.
    public struct Counts: Sendable, Hashable {
        /// New records.
        public var added = 0
        /// Existing records that changed.
        public var updated = 0
        /// Existing records already as the file says.
        public var unchanged = 0

        public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
            self.added = added
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    /// Bugs, keyed by title.
    public var bugs = Counts()
    /// Foods, keyed by (category, name).
    public var foods = Counts()
    /// Categories, keyed by name (`updated` counts a changed position).
    public var categories = Counts()
    /// Each refused record or setting, in file order: `path` is its position (`bugs[2]`,
    /// `foods[0]`, `ratingIcons.full`) and `reason` says why.
    public var problems: [CatalogError] = []
    /// False when nothing was written: an atomic import with problems.
    public var applied = true

    public init() {}

    /// True when every record went in.
    public var isClean: Bool { problems.isEmpty }
}
