// SPDX-License-Identifier: Apache-2.0
/// A bug's rating: 0 to 5 in steps of 0.5 (0, zero stars, is the default). Stored exactly as a
/// count of half stars, so equality and hashing never meet a rounding error.
public struct Rating: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The rating as a count of half stars, 0...10.
    public let halfStars: Int

    /// The rating in stars: 0, 0.5, … 5.
    public var value: Double { Double(halfStars) / 2 }

    /// Every valid rating, lowest first.
    public static let all: [Rating] = (0...10).map { Rating(halfStars: $0)! }

    /// No rating (0 stars).
    public static let zero = Rating(halfStars: 0)!

    /// A rating of `halfStars` half stars, or nil outside 0...10.
    public init?(halfStars: Int) {
        guard (0...10).contains(halfStars) else { return nil }
        self.halfStars = halfStars
    }

    /// The rating `value` stars, or nil unless it is one of 0, 0.5, … 5 (NaN and infinities
    /// included).
    public init?(exactly value: Double) {
        guard value.isFinite, value >= 0, value <= 5 else { return nil }
        let doubled = value * 2
        guard doubled == doubled.rounded() else { return nil }
        self.halfStars = Int(doubled)
    }

    /// `value` as a rating, or `CatalogError.invalidRecord(path: ref, …)` saying why not.
    public static func validated(_ value: Double, for ref: String) throws(CatalogError) -> Rating {
        guard let rating = Rating(exactly: value) else {
            throw CatalogError.invalidRecord(path: ref, reason: rejection(of: value))
        }
        return rating
    }

    /// The one-line reason `value` is not a rating, e.g.
    /// `rating 7 is not between 0 and 5 in steps of 0.5`.
    public static func rejection(of value: Double) -> String {
        "rating \(format(value)) is not between 0 and 5 in steps of 0.5"
    }

    /// `3`, `3.5`, `nan`, `inf`: integers without a decimal point, so messages read naturally.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    public static func < (lhs: Rating, rhs: Rating) -> Bool { lhs.halfStars < rhs.halfStars }

    /// `3.5`, `4`.
    public var description: String { Rating.format(value) }

    /// Decodes a JSON number and validates it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard let rating = Rating(exactly: value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Rating.rejection(of: value))
        }
        self = rating
    }

    /// Encodes the value as a JSON number (3.5, or 4 for whole stars).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if halfStars % 2 == 0 { try container.encode(halfStars / 2) } else { try container.encode(value) }
    }
}
