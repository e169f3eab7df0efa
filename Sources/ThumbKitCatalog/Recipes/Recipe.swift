// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// A named output that a kind of record needs: e.g. every bug gets a 44×44 pt list thumbnail at
/// @1x, @2x and @3x. A value with a stable `identifier` that keys its outputs, so changing any
/// option makes the build regenerate them.
///
/// In JSON (see `RecipeBook`) a recipe is
/// `{"name": "bug-list", "record": "bug", "kind": "list", "size": "44x44", "mode": "fill",
/// "scales": [1, 2, 3], "format": "jpeg", "quality": 85}`; `mode` (fill), `scales` ([1, 2]),
/// `format` (jpeg) and `quality` (85) may be left out.
public struct Recipe: Sendable, Hashable, Codable {
    /// A size in points (pixels at @1x); fractions such as 83.5 are allowed, to 3 decimals.
    public struct PointSize: Sendable, Hashable {
        /// Width in points.
        public let width: Double
        /// Height in points.
        public let height: Double

        /// `44x44`, `83.5x83.5`: each number as an integer when whole, else with up to three
        /// decimals, never through `description`.
        public var text: String { "\(Recipe.formatPoints(width))x\(Recipe.formatPoints(height))" }
    }

    /// A short name: lower-case letters, digits and `-`, starting with a letter or digit (it
    /// names the output files).
    public let name: String
    /// The kind of record the recipe applies to.
    public let recordKind: RecordKind
    /// What the output is for.
    public let outputKind: OutputKind
    /// The box in points.
    public let size: PointSize
    /// How the source maps onto the box.
    public let mode: ResizeMode
    /// Scale factors (1...4), ascending, without duplicates.
    public let scales: [Int]
    /// Output container.
    public let format: ImageFormat
    /// JPEG quality, 1...100 (kept, and part of the identifier, for PNG too).
    public let quality: Int

    /// Makes a recipe after checking every option; `scales` is sorted and de-duplicated.
    ///
    /// - Throws: `CatalogError.invalidRecord` (path `recipe '<name>'`) naming the bad option.
    public init(
        name: String, recordKind: RecordKind, outputKind: OutputKind, width: Double, height: Double,
        mode: ResizeMode = .fill, scales: [Int] = [1, 2], format: ImageFormat = .jpeg, quality: Int = 85
    ) throws(CatalogError) {
        func bad(_ reason: String) -> CatalogError { .invalidRecord(path: "recipe '\(name)'", reason: reason) }
        let nameBytes = Array(name.utf8)
        let nameOK =
            !nameBytes.isEmpty && nameBytes.count <= OutputNaming.maxSlugLength
            && nameBytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-") }
            && nameBytes.first != UInt8(ascii: "-")
        guard nameOK else {
            throw bad("name must be 1 to \(OutputNaming.maxSlugLength) of a-z, 0-9 and '-', not starting with '-'")
        }
        for (label, value) in [("width", width), ("height", height)] {
            guard value.isFinite, value > 0, value <= 10_000 else {
                throw bad("\(label) \(value) is not between 0 and 10000 points")
            }
            guard abs(value * 1000 - (value * 1000).rounded()) < 1e-6 else {
                throw bad("\(label) \(value) has more than 3 decimals")
            }
        }
        let sorted = Array(Set(scales)).sorted()
        guard !sorted.isEmpty, sorted.allSatisfy({ (1...4).contains($0) }) else {
            throw bad("scales \(scales) must be a non-empty list of 1, 2, 3 or 4")
        }
        guard (1...100).contains(quality) else { throw bad("quality \(quality) is not between 1 and 100") }
        guard format.isWritable else { throw bad("format \(format.rawValue) can be read but not written") }
        self.name = name
        self.recordKind = recordKind
        self.outputKind = outputKind
        self.size = PointSize(width: (width * 1000).rounded() / 1000, height: (height * 1000).rounded() / 1000)
        self.mode = mode
        self.scales = sorted
        self.format = format
        self.quality = quality
    }

    /// `recipe/v2?name=bug-list,record=bug,kind=list,pt=44x44,mode=fill,scales=1-2-3,fmt=jpeg,q=85`.
    /// Names every option with explicit formatting; stable across releases. The version is
    /// bumped whenever the pixels or bytes made for the same options change, so catalogs rebuild:
    /// v2 = colour-managed decoding and PNG outputs tagged with an sRGB chunk.
    public var identifier: String {
        "recipe/v2?name=\(name),record=\(recordKind.rawValue),kind=\(outputKind.rawValue),pt=\(size.text)"
            + ",mode=\(mode.rawValue),scales=\(scales.map(String.init).joined(separator: "-"))"
            + ",fmt=\(format.rawValue),q=\(quality)"
    }

    /// The pixel box at `scale`: points × scale, rounded half away from zero, at least 1.
    public func pixelSize(scale: Int) -> (width: Int, height: Int) {
        (max(1, Int((size.width * Double(scale)).rounded())), max(1, Int((size.height * Double(scale)).rounded())))
    }

    /// ThumbKit resize options for `scale` (kernel and other options at their defaults).
    public func resizeOptions(scale: Int) -> ResizeOptions {
        let box = pixelSize(scale: scale)
        return ResizeOptions(width: box.width, height: box.height, mode: mode)
    }

    /// `resizeOptions(scale:)` for each of `scales`, in order: what a build renders from one
    /// source for this recipe.
    public var variants: [ResizeOptions] { scales.map(resizeOptions(scale:)) }

    /// ThumbKit encode options (format and quality; the rest at their defaults).
    public var encodeOptions: EncodeOptions { EncodeOptions(format: format, quality: quality) }

    /// `83.5`, `44`: whole numbers without a point, else up to three decimals without trailing
    /// zeros.
    static func formatPoints(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let whole = thousandths / 1000
        var fraction = thousandths % 1000
        if fraction == 0 { return String(whole) }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return "\(whole).\(padded)"
    }
}
