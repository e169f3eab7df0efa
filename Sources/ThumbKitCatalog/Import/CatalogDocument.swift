/// The catalog as JSON: what `CatalogExporter` writes and `CatalogImporter` reads back.
///
/// ```json
/// {
///   "version": 1,
///   "categories": ["Chicken", "Pasta"],
///   "bugs": [{"id": 1, "title": "Potato Bug", "rating": 3.5, "image": "img/potato.jpg",
///             "imageSHA256": "…", "outputs": [{"path": "bugs/1-potato-bug/bug-list@2x.jpg",
///             "width": 88, "height": 88, "scale": 2, "kind": "list", "format": "jpeg",
///             "bytes": 5120, "recipe": "recipe/v1?…"}]}],
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
        public var width: Int
        public var height: Int
        public var scale: Int
        public var kind: OutputKind
        public var format: String
        public var bytes: Int
        /// The recipe identifier.
        public var recipe: String
    }

    /// A bug.
    public struct BugEntry: Sendable, Hashable, Codable {
        public var id: Int?
        public var title: String
        public var rating: Rating
        public var image: String?
        public var imageSHA256: String?
        public var outputs: [OutputEntry]?
    }

    /// A food.
    public struct FoodEntry: Sendable, Hashable, Codable {
        public var id: Int?
        public var category: String
        public var name: String
        public var image: String?
        public var imageSHA256: String?
        public var outputs: [OutputEntry]?
    }

    /// The three rating icons.
    public struct RatingIcons: Sendable, Hashable, Codable {
        public var empty: String?
        public var half: String?
        public var full: String?
    }

    /// Format version (1).
    public var version: Int?
    /// Category names in order.
    public var categories: [String]
    public var bugs: [BugEntry]
    public var foods: [FoodEntry]
    /// Where food images are found by name.
    public var imagesDir: String?
    public var ratingIcons: RatingIcons?
    public var logo: String?
}
