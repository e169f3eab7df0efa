// SPDX-License-Identifier: Apache-2.0
import ThumbKit

extension Recipe {
    private enum CodingKeys: String, CodingKey {
        case name, record, kind, size, mode, scales, format, quality
    }

    /// Decodes the JSON form (see the type's documentation), validating every option.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let sizeText = try c.decode(String.self, forKey: .size)
        guard let size = Self.parseSize(sizeText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .size, in: c, debugDescription: "size '\(sizeText)' should look like 44x44 or 83.5x83.5")
        }
        let format = try c.decodeIfPresent(ImageFormat.self, forKey: .format) ?? .jpeg
        do {
            try self.init(
                name: try c.decode(String.self, forKey: .name),
                recordKind: try c.decode(RecordKind.self, forKey: .record),
                outputKind: try c.decode(OutputKind.self, forKey: .kind), width: size.width, height: size.height,
                mode: try c.decodeIfPresent(ResizeMode.self, forKey: .mode) ?? .fill,
                scales: try c.decodeIfPresent([Int].self, forKey: .scales) ?? [1, 2],
                format: format,
                quality: try c.decodeIfPresent(Int.self, forKey: .quality) ?? EncodeOptions.defaultQuality(for: format))
        } catch let error as CatalogError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
        }
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(recordKind, forKey: .record)
        try c.encode(outputKind, forKey: .kind)
        try c.encode(size.text, forKey: .size)
        try c.encode(mode, forKey: .mode)
        try c.encode(scales, forKey: .scales)
        try c.encode(format, forKey: .format)
        try c.encode(quality, forKey: .quality)
    }

    /// `44x44` → (44, 44); nil unless two positive numbers joined by `x`.
    static func parseSize(_ text: String) -> (width: Double, height: Double)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else { return nil }
        return (w, h)
    }
}
