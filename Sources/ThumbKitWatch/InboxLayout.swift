// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog

/// How the files of a watched inbox map to catalog records. Paths are relative to the inbox and
/// use `/`:
///
///     bugs/<title>.<image>                the bug titled <title> (created when new)
///     bugs/<title>.json                   its rating sidecar, such as {"rating": 3.5}
///     foods/<category>/<name>.<image>     the food <name> in <category> (both created when new)
///
/// `<image>` is any of `imageExtensions` (png, jpg, jpeg, webp, heic, heif, avif), matched without
/// regard to case. Temporary names (dot-files, `*.part`,
/// `*.tmp`, `*.crdownload`, `.syncthing.*`) are left alone until they are renamed; anything
/// inside a dot-folder (`.rejected/`) is never looked at. Every other path is ignored with a
/// notice.
public enum InboxLayout {
    /// The folder of bug images.
    public static let bugsFolder = "bugs"
    /// The folder of food category folders.
    public static let foodsFolder = "foods"
    /// Where rejected files go (a dot-folder, so the watcher never looks inside).
    public static let rejectedFolder = ".rejected"
    /// The lock file that keeps a second watcher off the inbox.
    public static let lockFileName = ".thumbkit-watch.lock"
    /// Image extensions, lower-case.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "heic", "heif", "avif"]
    /// Suffixes of files still being written by browsers, sync tools and copy programs.
    public static let temporarySuffixes = [".part", ".tmp", ".crdownload"]

    /// The record an image file stands for.
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// The bug with this title.
        case bug(title: String)
        /// The food called `name` in `category`.
        case food(category: String, name: String)

        /// The kind of record it is.
        public var recordKind: RecordKind {
            switch self {
            case .bug: return .bug
            case .food: return .food
            }
        }

        /// `bug 'Potato Bug'`, `food 'Chicken/Chicken Marsala'`.
        public var description: String {
            switch self {
            case .bug(let title): return "bug '\(title)'"
            case .food(let category, let name): return "food '\(category)/\(name)'"
            }
        }
    }

    /// What a path in the inbox is.
    public enum Entry: Sendable, Hashable {
        /// An image for a record.
        case image(Target)
        /// The rating sidecar of the bug titled `bugTitle`.
        case sidecar(bugTitle: String)
        /// A name that is still being written (or a dot-file): left alone, silently.
        case temporary
        /// Inside a dot-folder (`.rejected/…`): never looked at.
        case hidden
        /// Not part of the layout; `reason` is the notice.
        case ignored(reason: String)
    }

    /// The notice for a file outside the layout.
    static let layoutReason = "not bugs/<title>.<image> or foods/<category>/<name>.<image>"

    /// Classifies the file at `relativePath` (relative to the inbox, `/`-separated).
    public static func classify(_ relativePath: String) -> Entry {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return .ignored(reason: layoutReason) }
        if parts.dropLast().contains(where: { $0.hasPrefix(".") }) { return .hidden }
        if isTemporaryName(name) { return .temporary }
        // Names are PathBytes strings; a record's title or name is their escaped display form
        // (`caf\xE9`), so it is valid text in the catalog and in outputs.
        let (rawStem, ext) = splitExtension(name)
        let stem = PathBytes.display(rawStem)
        let isImage = ext.map { imageExtensions.contains($0.lowercased()) } ?? false
        switch (parts.first, parts.count) {
        case (bugsFolder, 2):
            if isImage { return .image(.bug(title: stem)) }
            if ext?.lowercased() == "json" { return .sidecar(bugTitle: stem) }
            return .ignored(reason: "not a .png, .jpg, .jpeg, .webp, .heic, .heif or .avif file")
        case (foodsFolder, 3):
            if isImage { return .image(.food(category: PathBytes.display(parts[1]), name: stem)) }
            return .ignored(reason: "not a .png, .jpg, .jpeg, .webp, .heic, .heif or .avif file")
        default:
            return .ignored(reason: layoutReason)
        }
    }

    /// True for names that are still being written or are hidden: dot-files (which covers
    /// `.syncthing.*` and editors' swap files) and `*.part`, `*.tmp`, `*.crdownload`.
    public static func isTemporaryName(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        let lower = name.lowercased()
        return temporarySuffixes.contains { lower.hasSuffix($0) }
    }

    /// Whether the watcher looks inside the folder at `relativePath` ("" is the inbox): the
    /// inbox, `bugs`, `foods` and each `foods/<category>`; never a dot-folder.
    public static func isWatchedFolder(_ relativePath: String) -> Bool {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true)
        if parts.contains(where: { $0.hasPrefix(".") }) { return false }
        switch parts.count {
        case 0: return true
        case 1: return parts[0] == bugsFolder || parts[0] == foodsFolder
        case 2: return parts[0] == foodsFolder
        default: return false
        }
    }

    /// The rating sidecar of the bug titled `title`: `bugs/<title>.json`.
    public static func sidecarPath(forBugTitle title: String) -> String {
        "\(bugsFolder)/\(title).json"
    }

    /// `("Potato Bug", "jpg")` for `Potato Bug.jpg`; `(name, nil)` without a dot.
    static func splitExtension(_ name: String) -> (stem: String, ext: String?) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, nil) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
