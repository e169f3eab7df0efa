// SPDX-License-Identifier: Apache-2.0
/// The catalog-wide files a build uses besides record images (the `settings` table).
public struct CatalogAssets: Sendable, Hashable, Codable {
    /// Rating icon for an empty star.
    public var ratingEmpty: String?
    /// Rating icon for a half star.
    public var ratingHalf: String?
    /// Rating icon for a full star.
    public var ratingFull: String?
    /// The logo (app icon source).
    public var logo: String?
    /// The folder where food images are found by name.
    public var imagesDir: String?

    public init(
        ratingEmpty: String? = nil, ratingHalf: String? = nil, ratingFull: String? = nil,
        logo: String? = nil, imagesDir: String? = nil
    ) {
        self.ratingEmpty = ratingEmpty
        self.ratingHalf = ratingHalf
        self.ratingFull = ratingFull
        self.logo = logo
        self.imagesDir = imagesDir
    }

    /// The fields found among `settings` (settings keys to values).
    init(settings: [String: String]) {
        for (key, field) in Self.keys { self[keyPath: field] = settings[key] }
    }

    /// The settings key of each field, in a fixed order.
    static var keys: [(key: String, field: WritableKeyPath<CatalogAssets, String?>)] {
        [
            ("rating_icon.empty", \.ratingEmpty), ("rating_icon.half", \.ratingHalf),
            ("rating_icon.full", \.ratingFull), ("logo", \.logo), ("images_dir", \.imagesDir),
        ]
    }
}
