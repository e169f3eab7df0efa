// SPDX-License-Identifier: Apache-2.0
/// The import file as read: every record is decoded on its own (`Lenient`), so one bad record
/// is reported by position while the rest still go in. Names follow `CatalogDocument`.
struct ImportDocument: Decodable {
    struct Bug: Decodable {
        var id: Int?
        var title: String
        /// Not validated here: a bad rating is reported with the record's position.
        var rating: Double?
        var image: String?
    }

    struct Food: Decodable {
        var id: Int?
        var category: String
        var name: String
        var image: String?
    }

    struct RatingIcons: Decodable {
        var empty: String?
        var half: String?
        var full: String?
    }

    var categories: [Lenient<String>]?
    var bugs: [Lenient<Bug>]?
    var foods: [Lenient<Food>]?
    var imagesDir: String?
    var ratingIcons: RatingIcons?
    var logo: String?
    /// `true`: nothing goes in if any record is bad.
    var atomic: Bool?
}
