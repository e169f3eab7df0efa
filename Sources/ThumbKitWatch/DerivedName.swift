// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog

/// File names the watcher makes from an inbox name (`<stem> (2).<ext>`, `<stem>.<hash>.<ext>`,
/// `<name>.error.txt`), kept within the file system's limit of 255 bytes per name.
///
/// An inbox name may already be close to the limit; adding to it would fail with "file name
/// too long", and fail again on every retry. A name that would not fit has its stem cut at a
/// character boundary and `~<8 hex digits>` of the SHA-256 of the whole original stem added, so
/// two long names with the same beginning stay different. The suffix and extension are kept.
enum DerivedName {
    /// The longest file name Linux file systems allow, in bytes.
    static let maxBytes = 255

    /// The longest name that `FileIO.writeAtomically` can write: its temporary file's name
    /// (``TemporaryFileName``) adds up to 33 bytes (host tag, a 7-digit pid, a 10-digit number).
    static let maxAtomicBytes = maxBytes - TemporaryFileName.maxAddedBytes

    /// `stem + suffix + "." + ext` (without the dot when `ext` is nil), in at most `limit` bytes.
    static func fit(stem: String, suffix: String = "", ext: String?, limit: Int = maxBytes) -> String {
        let tail = suffix + (ext.map { "." + $0 } ?? "")
        if stem.utf8.count + tail.utf8.count <= limit { return stem + tail }
        let tag = "~" + ContentHash.sha256(of: Array(stem.utf8)).prefix(8)
        let room = limit - tail.utf8.count - tag.utf8.count
        guard room > 0 else {
            // Only an absurd extension leaves no room: keep the tag and as much as fits.
            return String(cut(stem + tail, toBytes: max(1, limit - tag.utf8.count))) + tag
        }
        return cut(stem, toBytes: room) + tag + tail
    }

    /// The longest prefix of `text` made of whole characters that fits in `bytes` UTF-8 bytes.
    static func cut(_ text: String, toBytes bytes: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let size = character.utf8.count
            if used + size > bytes { break }
            used += size
            result.append(character)
        }
        return result
    }
}
