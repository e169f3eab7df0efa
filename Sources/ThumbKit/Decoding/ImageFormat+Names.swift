// SPDX-License-Identifier: Apache-2.0
extension ImageFormat {
    /// The name people know the format by (`PNG`, `JPEG`, `WebP`, `HEIC`, `AVIF`).
    package var displayName: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        case .heic: return "HEIC"
        case .avif: return "AVIF"
        }
    }

    /// Every format ThumbKit reads, for messages and help: `PNG, JPEG, WebP, HEIC or AVIF`
    /// (`conjunction` "and" for "from PNG, …, HEIC and AVIF files").
    package static func readableNames(_ conjunction: String = "or") -> String {
        let names = allCases.map(\.displayName)
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}
