// SPDX-License-Identifier: Apache-2.0
/// A food category. Categories are ordered by `position` (0 first).
public struct FoodCategory: Sendable, Hashable, Codable, Identifiable {
    /// Row id.
    public let id: Int
    /// The name exactly as given (unique).
    public var name: String
    /// Place in the category order, 0 first.
    public var position: Int

    public init(id: Int, name: String, position: Int) {
        self.id = id
        self.name = name
        self.position = position
    }
}
