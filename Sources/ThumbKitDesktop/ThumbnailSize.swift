// SPDX-License-Identifier: Apache-2.0
/// The freedesktop.org Thumbnail Managing Standard's sizes: each has a folder under the cache
/// root and a box its thumbnails fit inside (never enlarged).
public enum ThumbnailSize: String, Sendable, Hashable, Codable, CaseIterable {
    case normal
    case large
    case xLarge = "x-large"
    case xxLarge = "xx-large"

    /// The folder name under the cache root (`normal`, `large`, `x-large`, `xx-large`).
    public var folder: String { rawValue }

    /// The side of the square box in pixels: 128, 256, 512 or 1024.
    public var pixels: Int {
        switch self {
        case .normal: return 128
        case .large: return 256
        case .xLarge: return 512
        case .xxLarge: return 1024
        }
    }

    /// What `thumbkit xdg` makes when no `--size` is given.
    public static let defaults: [ThumbnailSize] = [.normal, .large]
}
