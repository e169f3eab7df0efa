// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// Where the web app keeps uploaded pictures: `<folder>/<sha256>.<ext>`, named by content, so a
/// file is never overwritten with other bytes and the old picture stays for as long as a
/// record (or an undo) may want it. An upload is checked exactly as `catalog set-image` checks
/// a file (`SourceImage.validate`: the same limits, one decode) before anything is written, and
/// the catalog is changed only after the file is in place; a rejected upload changes nothing.
///
/// Nothing already at an upload's name is ever replaced, even when it appears while the upload
/// is being written: the file is published with `FileIO.writeNew`, whose rename fails when the
/// name is taken, rather than by checking the name first.
package struct UploadStore: Sendable {
    /// The folder (outside the build's `--out`: the build refuses sources inside it).
    package let folder: String
    package let limits: ImageLimits
    /// The rename that publishes an upload (``SystemNoReplaceRename``; tests plant files through it).
    let renaming: any NoReplaceRenaming

    package init(folder: String, limits: ImageLimits, renaming: any NoReplaceRenaming = SystemNoReplaceRename()) {
        self.folder = folder
        self.limits = limits
        self.renaming = renaming
    }

    /// Why an upload was refused: one line for the page.
    package struct Rejected: Error, Equatable, Sendable {
        package let message: String
    }

    /// Checks `bytes` and stores them; returns the picture for the record.
    package func store(_ bytes: [UInt8], filename: String) throws(Rejected) -> ImageRef {
        let shown = Self.shownName(filename)
        guard !bytes.isEmpty else { throw Rejected(message: "\(shown): the file is empty") }
        guard bytes.count <= limits.maxFileBytes else {
            throw Rejected(message: "\(shown): \(bytes.count) bytes, over the limit of \(limits.maxFileBytes) bytes")
        }
        let format: ImageFormat
        do {
            let source = try ImageSource(bytes, path: shown)
            try SourceImage.validate(source, limits: limits)
            format = source.header.format
        } catch {
            throw Rejected(message: "\(shown): not a picture that can be used (\(error.reason))")
        }
        let hash = ContentHash.sha256(of: bytes)
        let path = (folder as NSString).appendingPathComponent("\(hash).\(format.fileExtension)")
        if let reason = FileIO.makeFolders(folder) {
            throw Rejected(message: "the upload folder cannot be created: \(reason)")
        }
        do throws(NewFileError) {
            try FileIO.writeNew(bytes, to: path, renaming: renaming)
        } catch {
            guard case .exists = error else { throw Rejected(message: "the upload cannot be stored: \(error.reason)") }
            // Something is already at that name (a link included): never replaced. It is used only
            // when it holds these very bytes, an earlier upload of the same picture.
            guard (try? FileIO.read(path, maxBytes: bytes.count)) == bytes else {
                throw Rejected(message: "\(shown): \(path) exists and is not this picture; left alone")
            }
        }
        return ImageRef(path: path, sha256: hash)
    }

    /// The browser's file name made safe to show: its last component, printable, at most 80 characters.
    static func shownName(_ filename: String) -> String {
        let last = filename.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let printable = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return printable.isEmpty ? "the upload" : String(printable.prefix(80))
    }
}
