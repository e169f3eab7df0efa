// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// How rating strips look: five icons of `iconSize` points in a row, `spacing` points apart, on
/// `background`, made at every scale in `scales`. A strip at scale *s* is
/// `5·round(iconSize·s) + 4·round(spacing·s)` by `round(iconSize·s)` pixels.
///
/// In a recipe file (see `RecipeBook`) it is the optional `ratingStrip` object:
/// `{"iconSize": 20, "spacing": 4, "scales": [1, 2, 3], "background": "#00000000"}`, every key
/// optional.
public struct RatingStripStyle: Sendable, Hashable {
    /// One icon's width and height in points (1…1000, up to 3 decimals).
    public let iconSize: Double
    /// The gap between two icons in points (0…1000, up to 3 decimals).
    public let spacing: Double
    /// Scale factors made (1…4), ascending, without duplicates.
    public let scales: [Int]
    /// What the icons are drawn over ("over" compositing); transparent by default.
    public let background: RGBA

    /// 20 pt icons, 4 pt apart, at @1x, @2x and @3x on a transparent background.
    public static let standard: RatingStripStyle = {
        do {
            return try RatingStripStyle()
        } catch {
            fatalError("The built-in rating strip style is invalid: \(error)")  // Fixed values; a test checks them.
        }
    }()

    /// Makes a style after checking every value; `scales` is sorted and de-duplicated.
    ///
    /// - Throws: `CatalogError.invalidRecord` (path `ratingStrip`) naming the bad value.
    public init(iconSize: Double = 20, spacing: Double = 4, scales: [Int] = [1, 2, 3], background: RGBA = .transparent)
        throws(CatalogError)
    {
        func bad(_ reason: String) -> CatalogError { .invalidRecord(path: "ratingStrip", reason: reason) }
        guard iconSize.isFinite, iconSize >= 1, iconSize <= 1000 else {
            throw bad("iconSize \(iconSize) is not between 1 and 1000 points")
        }
        guard spacing.isFinite, spacing >= 0, spacing <= 1000 else {
            throw bad("spacing \(spacing) is not between 0 and 1000 points")
        }
        for (label, value) in [("iconSize", iconSize), ("spacing", spacing)]
        where abs(value * 1000 - (value * 1000).rounded()) >= 1e-6 {
            throw bad("\(label) \(value) has more than 3 decimals")
        }
        let sorted = Array(Set(scales)).sorted()
        guard !sorted.isEmpty, sorted.allSatisfy({ (1...4).contains($0) }) else {
            throw bad("scales \(scales) must be a non-empty list of 1, 2, 3 or 4")
        }
        self.iconSize = (iconSize * 1000).rounded() / 1000
        self.spacing = (spacing * 1000).rounded() / 1000
        self.scales = sorted
        self.background = background
    }

    /// One icon's side in pixels at `scale` (at least 1).
    public func iconPixels(scale: Int) -> Int { max(1, Int((iconSize * Double(scale)).rounded())) }

    /// The gap in pixels at `scale`.
    public func spacingPixels(scale: Int) -> Int { Int((spacing * Double(scale)).rounded()) }

    /// The strip's pixel size at `scale`.
    public func stripSize(scale: Int) -> (width: Int, height: Int) {
        let icon = iconPixels(scale: scale)
        let count = RatingStrip.iconCount
        return (count * icon + (count - 1) * spacingPixels(scale: scale), icon)
    }

    /// The x of each icon's left edge at `scale`, left to right.
    public func iconOrigins(scale: Int) -> [Int] {
        let step = iconPixels(scale: scale) + spacingPixels(scale: scale)
        return (0..<RatingStrip.iconCount).map { $0 * step }
    }

    /// The key of the strip for `rating`:
    /// `rating/v1?pt=20,gap=4,bg=#00000000,half=split,value=3.5` (`half=icon` when a half icon
    /// was given, `split` when it is synthesised). The icons' bytes are not in it: outputs also
    /// record the icons' combined hash as their source.
    public func identifier(for rating: Rating, halfGiven: Bool) -> String {
        "rating/v1?pt=\(Recipe.formatPoints(iconSize)),gap=\(Recipe.formatPoints(spacing)),bg=\(background.hex)"
            + ",half=\(halfGiven ? "icon" : "split"),value=\(rating)"
    }
}

extension RatingStripStyle: Codable {
    private enum CodingKeys: String, CodingKey {
        case iconSize, spacing, scales, background
    }

    /// Decodes the JSON form; every key is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let background: RGBA
        if let text = try c.decodeIfPresent(String.self, forKey: .background) {
            guard let parsed = RGBA(parsing: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .background, in: c, debugDescription: "background '\(text)' should look like #rrggbbaa")
            }
            background = parsed
        } else {
            background = .transparent
        }
        do {
            try self.init(
                iconSize: try c.decodeIfPresent(Double.self, forKey: .iconSize) ?? 20,
                spacing: try c.decodeIfPresent(Double.self, forKey: .spacing) ?? 4,
                scales: try c.decodeIfPresent([Int].self, forKey: .scales) ?? [1, 2, 3], background: background)
        } catch let error as CatalogError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
        }
    }

    /// Encodes the JSON form (background as `#rrggbbaa`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iconSize, forKey: .iconSize)
        try c.encode(spacing, forKey: .spacing)
        try c.encode(scales, forKey: .scales)
        try c.encode(background.hex, forKey: .background)
    }
}
