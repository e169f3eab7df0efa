// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A food record: a named dish in a category, with its source image.
public struct Food: Sendable, Hashable, Codable, Identifiable {
    /// Row id (stable: output paths are derived from it).
    public let id: Int
    /// The category's row id.
    public var categoryID: Int
    /// The category's name (joined in for convenience).
    public var category: String
    /// The name exactly as given (unique within its category; never empty).
    public var name: String
    /// The source image, if one was set.
    public var image: ImageRef?
    /// When the record was created.
    public var createdAt: Date
    /// When the record last changed.
    public var updatedAt: Date

    public init(
        id: Int, categoryID: Int, category: String, name: String, image: ImageRef?, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.categoryID = categoryID
        self.category = category
        self.name = name
        self.image = image
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// `food <id>`.
    public var ref: RecordRef { .food(id) }
}
