// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A bug record: a titled, rated bug with an optional source image.
public struct Bug: Sendable, Hashable, Codable, Identifiable {
    /// Row id (stable: output paths are derived from it).
    public let id: Int
    /// The title exactly as given (unique in the catalog; never empty).
    public var title: String
    /// 0 to 5 in steps of 0.5.
    public var rating: Rating
    /// The source image, if one was set.
    public var image: ImageRef?
    /// When the record was created.
    public var createdAt: Date
    /// When the record last changed.
    public var updatedAt: Date

    public init(id: Int, title: String, rating: Rating, image: ImageRef?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.rating = rating
        self.image = image
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// `bug <id>`.
    public var ref: RecordRef { .bug(id) }
}
