// SPDX-License-Identifier: Apache-2.0
/// The catalog as JSON: what `CatalogExporter` writes and `CatalogImporter` reads back.
///
/// ```json
/// {
///   "version": 1,
///   "categories": ["Chicken", "Pasta"],
///   "bugs": [{"id": 1, "title": "Potato Bug", "rating": 3.5, "image": "img/potato.jpg",
///             "imageSHA256": "…", "outputs": [{"path": "bugs/1-potato-bug/bug-list@2x.jpg",
///             "width": 88, "height": 88, "scale": 2, "kind": "list", "format": "jpeg",
///             "bytes": 5120, "recipe": "recipe/v2?…"}]}],
///   "foods": [{"id": 1, "category": "Chicken", "name": "Chicken Marsala",
///              "image": "img/Chicken Marsala.png", "outputs": []}],
///   "imagesDir": "img",
///   "ratingIcons": {"empty": "icons/empty.png", "half": "icons/half.png", "full": "icons/full.png"},
///   "logo": "logo.png"
/// }
/// ```
/// Paths inside the export file's folder are written relative to it, others absolute. Titles
/// and names are exactly as stored. An import ignores `outputs` and `imageSHA256` (it hashes the
/// images again) and uses `id` for a new record when that id is free, so output paths survive
/// a restore.
public struct CatalogDocument: Sendable, Hashable, Codable {
    /// One output file of a record.
    public struct OutputEntry: Sendable, Hashable, Codable {
        /// Relative to the output folder.
        public var path: String
        /// Pixel width.
        public var width: Int
        /// Pixel height.
        public var height: Int
        /// 1, 2 or 3 (@1x, @2x, @3x).
        public var scale: Int
        /// What the output is for.
        public var kind: OutputKind
        /// `jpeg` or `png`.
        public var format: String
        /// File size in bytes.
        public var bytes: Int
        /// The recipe identifier.
        public var recipe: String
    }

    /// A bug.
    public struct BugEntry: Sendable, Hashable, Codable {
        /// Row id (reused by an import when free).
        public var id: Int?
        /// The title exactly as stored.
        public var title: String
        /// 0 to 5 in steps of 0.5.
        public var rating: Rating
        /// The source image (relative to the export's folder when inside it).
        public var image: String?
        /// SHA-256 of the source image when it was recorded.
        public var imageSHA256: String?
        /// Its generated files (ignored by an import).
        public var outputs: [OutputEntry]?
    }

    /// A food.
    public struct FoodEntry: Sendable, Hashable, Codable {
        /// Row id (reused by an import when free).
        public var id: Int?
        /// The category's name.
        public var category: String
        /// The name exactly as stored.
        public var name: String
        /// The source image (relative to the export's folder when inside it).
        public var image: String?
        /// SHA-256 of the source image when it was recorded.
        public var imageSHA256: String?
        /// Its generated files (ignored by an import).
        public var outputs: [OutputEntry]?
    }

    /// The three rating icons.
    public struct RatingIcons: Sendable, Hashable, Codable {
        /// Empty-star icon.
        public var empty: String?
        /// Half-star icon.
        public var half: String?
        /// Full-star icon.
        public var full: String?
    }

    /// Format version (1).
    public var version: Int?
    /// Category names in order.
    public var categories: [String]
    /// Every bug, by id.
    public var bugs: [BugEntry]
    /// Every food, by category order then id.
    public var foods: [FoodEntry]
    /// Where food images are found by name.
    public var imagesDir: String?
    /// The rating icons, when any is set.
    public var ratingIcons: RatingIcons?
    /// The logo, when set.
    public var logo: String?
}

extension CatalogDocument {
    /// The ids an import file may give a record: 1 to 2^53 − 1, so that every id survives a
    /// round trip through any JSON reader (which may hold numbers as doubles) and SQLite's next
    /// automatic id stays sequential instead of turning random past 2^63 − 1.
    public static let validIDs: ClosedRange<Int> = 1...((1 << 53) - 1)

    /// Why `id` is refused, naming the range.
    static func idRejection(_ id: Int) -> String {
        "id \(id) is not between \(validIDs.lowerBound) and \(validIDs.upperBound)"
    }
}
