// SPDX-License-Identifier: Apache-2.0
import ThumbKit

extension OutputNaming {
    /// Hex digits of the content tag in a built file's name.
    public static let tagLength = 8

    /// The content tag of an output: the first `tagLength` hex digits of
    /// SHA-256(`sourceSHA256` + newline + `identifier`). It changes whenever the source or the
    /// recipe does, so a rebuilt file never overwrites the one a catalog row still describes.
    public static func tag(sourceSHA256: String, identifier: String) -> String {
        String(ContentHash.sha256(of: Array("\(sourceSHA256)\n\(identifier)".utf8)).prefix(tagLength))
    }

    /// `<base>.<tag>[@<scale>x].<ext>`: `bug-list.3fa9c2d1@2x.jpg`, `rating-3.5-stars.0c1d2e3f.png`.
    /// `base` must already be safe (a slug, or a slug-like name).
    public static func taggedFileName(base: String, tag: String, scale: Int, format: ImageFormat) -> String {
        precondition(scale >= 1, "Scale must be at least 1.")
        let suffix = scale == 1 ? "" : "@\(scale)x"
        return "\(base).\(tag)\(suffix).\(format.fileExtension)"
    }

    /// Where the build puts `record`'s output of `recipe` at `scale` made from a source with
    /// hash `sourceSHA256`: `bugs/12-potato-bug/bug-list.3fa9c2d1@2x.jpg`. The folder is
    /// `folder(for:title:)`; the file is the recipe's slug, the content tag and the scale.
    public static func builtPath(
        for record: RecordRef, title: String, recipe: Recipe, scale: Int, sourceSHA256: String
    ) -> String {
        let tag = tag(sourceSHA256: sourceSHA256, identifier: recipe.identifier)
        let name = taggedFileName(base: slug(recipe.name), tag: tag, scale: scale, format: recipe.format)
        return "\(folder(for: record, title: title))/\(name)"
    }
}
