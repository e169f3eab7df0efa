// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Where each output file goes, relative to the output folder. Names are built from row ids
/// plus a sanitised slug, so no title (`../../etc/passwd`, an empty string, `.hidden`,
/// `日本語`, a 10 000-character name) can leave the output folder, make a hidden file, or
/// collide with another record's files:
///
///     bugs/12-potato-bug/bug-list@2x.jpg
///     foods/7-chicken-marsala/food-detail.jpg      (scale 1 has no suffix, as in asset catalogs)
///
/// - The folder is `<kind folder>/<id>-<slug>`: the id makes it unique and keeps it from
///   starting with a dot; the slug only makes it readable.
/// - The file is `<recipe slug>[@<scale>x].<ext>`; `RecipeBook` rejects two recipes of one record
///   kind whose names slug the same.
public enum OutputNaming {
    /// The longest slug, in characters.
    public static let maxSlugLength = 40

    /// The slug of an empty or all-symbol text.
    public static let emptySlug = "untitled"

    /// `text` as `[a-z0-9-]`: accents folded (`é` → `e`), lower-cased, every run of other
    /// characters turned into one `-`, `-` trimmed from both ends, cut to `maxSlugLength`;
    /// `untitled` when nothing is left.
    public static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var out: [UInt8] = []
        var pendingDash = false
        for byte in folded.utf8 {
            let lower = (65...90).contains(byte) ? byte + 32 : byte
            if (97...122).contains(lower) || (48...57).contains(lower) {
                let dash = pendingDash && !out.isEmpty
                if out.count + (dash ? 2 : 1) > maxSlugLength { break }
                if dash { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(lower)
            } else {
                pendingDash = true
            }
        }
        while out.last == UInt8(ascii: "-") { out.removeLast() }
        return out.isEmpty ? emptySlug : String(decoding: out, as: UTF8.self)
    }

    /// The folder of one record's outputs: `bugs/12-potato-bug`, `foods/7-chicken-marsala`,
    /// `app/0-<slug>`.
    public static func folder(for record: RecordRef, title: String) -> String {
        "\(record.kind.folderName)/\(record.id)-\(slug(title))"
    }

    /// `bug-list@2x.jpg`, or `bug-list.jpg` at scale 1.
    public static func fileName(recipeName: String, scale: Int, format: ImageFormat) -> String {
        precondition(scale >= 1, "Scale must be at least 1.")
        let suffix = scale == 1 ? "" : "@\(scale)x"
        return "\(slug(recipeName))\(suffix).\(format.fileExtension)"
    }

    /// The output path of `record` (titled or named `title`) for `recipe` at `scale`.
    public static func path(for record: RecordRef, title: String, recipe: Recipe, scale: Int) -> String {
        "\(folder(for: record, title: title))/\(fileName(recipeName: recipe.name, scale: scale, format: recipe.format))"
    }

    /// True for a path that stays inside the folder it is relative to and names no hidden file:
    /// non-empty, at most 1024 bytes, only ASCII letters, digits and `- _ . @ /`, no leading or
    /// doubled `/`, and no part that starts with `.` (so no `.`, `..` or dot files).
    public static func isSafeRelativePath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= 1024 else { return false }
        let allowed: (UInt8) -> Bool = { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "@")].contains(byte)
        }
        for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let first = part.first, first != UInt8(ascii: "."), part.allSatisfy(allowed) else { return false }
        }
        return true
    }
}
