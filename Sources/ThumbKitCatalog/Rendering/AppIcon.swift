// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// The iOS app icon set made from one logo: every size and scale Xcode's classic
/// `AppIcon.appiconset` asks for (iPhone, iPad and the App Store's 1024 pt), plus the Food app's
/// own 52 pt icon (52×52 pixels at @1x), and the set's `Contents.json`.
///
/// Each (points, scale) pair is one PNG file, shared by every idiom that uses it (20 pt @2x
/// serves both iPhone and iPad). Icons are opaque (the App Store refuses alpha): the logo is
/// scaled to fill the square and flattened onto `background`.
public enum AppIcon {
    /// The folder of the set inside the output folder.
    public static let folder = "app/AppIcon.appiconset"

    /// The `Contents.json` path inside the output folder.
    public static let contentsPath = folder + "/Contents.json"

    /// What an icon file is flattened onto (opaque white).
    public static let background = RGBA.white

    /// One line of `Contents.json`: an idiom's size at a scale.
    public struct Entry: Sendable, Hashable {
        /// `iphone`, `ipad` or `ios-marketing`.
        public let idiom: String
        /// The side in points (83.5 for the iPad Pro).
        public let points: Double
        /// 1, 2 or 3.
        public let scale: Int

        /// The side in pixels: points × scale, rounded (83.5 @2x is 167).
        public var pixels: Int { Int((points * Double(scale)).rounded()) }
        /// `20x20`, `83.5x83.5`.
        public var sizeText: String {
            let side = Recipe.formatPoints(points)
            return "\(side)x\(side)"
        }
        /// The file this entry shares with others of the same points and scale.
        public var file: File { File(points: points, scale: scale) }
    }

    /// One icon file: a side in points at a scale.
    public struct File: Sendable, Hashable {
        /// The side in points.
        public let points: Double
        /// 1, 2 or 3.
        public let scale: Int

        /// The side in pixels.
        public var pixels: Int { Int((points * Double(scale)).rounded()) }

        /// `appicon/v1?pt=83.5,fmt=png,bg=#ffffffff`: the key of its output row (with `scale`).
        public var identifier: String {
            "appicon/v1?pt=\(Recipe.formatPoints(points)),fmt=png,bg=\(AppIcon.background.hex)"
        }

        /// `icon-83-5pt`: the start of its file name (the build adds a content tag and `@2x`).
        public var baseName: String { "icon-\(OutputNaming.slug(Recipe.formatPoints(points)))pt" }
    }

    /// Xcode's classic table (iOS 7 and later plus the iOS 6 57 pt iPhone icon), and the Food
    /// app's 52 pt icon as extra `iphone` entries: @1x (the 52×52-pixel PNG its brief asks
    /// for), @2x and @3x.
    public static let entries: [Entry] = {
        let table: [(String, Double, [Int])] = [
            ("iphone", 20, [2, 3]), ("iphone", 29, [1, 2, 3]), ("iphone", 40, [2, 3]), ("iphone", 52, [1, 2, 3]),
            ("iphone", 57, [1, 2]), ("iphone", 60, [2, 3]),
            ("ipad", 20, [1, 2]), ("ipad", 29, [1, 2]), ("ipad", 40, [1, 2]), ("ipad", 76, [1, 2]),
            ("ipad", 83.5, [2]), ("ios-marketing", 1024, [1]),
        ]
        return table.flatMap { idiom, points, scales in
            scales.map { Entry(idiom: idiom, points: points, scale: $0) }
        }
    }()

    /// Every distinct file, smallest points first, then by scale.
    public static var files: [File] {
        Array(Set(entries.map(\.file))).sorted { ($0.points, $0.scale) < ($1.points, $1.scale) }
    }

    /// The resize options of one file: fill the square.
    public static func resizeOptions(for file: File) -> ResizeOptions {
        ResizeOptions(width: file.pixels, height: file.pixels, mode: .fill)
    }

    /// The encode options of every icon: PNG.
    public static let encodeOptions = EncodeOptions(format: .png, background: background)

    /// `Contents.json` for the set, given each file's name inside the set's folder (every file in
    /// `files` must have one): the entries in table order, keys sorted, pretty-printed.
    public static func contentsJSON(fileNames: [File: String]) -> Data {
        struct Image: Encodable {
            let filename: String
            let idiom: String
            let scale: String
            let size: String
        }
        struct Info: Encodable {
            let author: String
            let version: Int
        }
        struct Contents: Encodable {
            let images: [Image]
            let info: Info
        }
        let images = entries.map { entry in
            guard let name = fileNames[entry.file] else { preconditionFailure("No file name for \(entry.file).") }
            return Image(filename: name, idiom: entry.idiom, scale: "\(entry.scale)x", size: entry.sizeText)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and integers cannot fail.
        let data = try! encoder.encode(Contents(images: images, info: Info(author: "thumbkit", version: 1)))
        return data + Data("\n".utf8)
    }
}
