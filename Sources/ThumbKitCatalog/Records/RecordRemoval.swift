// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// `catalog remove`: deletes a record, its output rows and the output files the catalog wrote
/// for it, and nothing else.
///
/// The record and its rows go in one transaction; the files are removed only after it commits
/// (a crash in between leaves files no row describes, which the next build's sweep removes).
/// A file is removed only when its output row names it by a safe relative path (no `..`, no
/// hidden parts, not absolute), it is a regular file inside the output folder once links are
/// resolved, no other output row names it (rating strips are shared by bugs of one rating), and
/// it is no record's source picture (not the removed record's either). The folders it leaves
/// empty go too, never the output folder itself.
///
/// First of all, the output folder's owner is checked as every build checks it
/// (`OUT/.thumbkit-catalog`): a folder another catalog claimed is refused before anything is
/// deleted (the record stays too), and in a folder no catalog claimed, no file is removed (none
/// is provably this catalog's; each is kept and named).
public enum RecordRemoval {
    /// What a removal did.
    public struct Outcome: Sendable, Hashable {
        /// The record removed.
        public var record: RecordRef
        /// Its title or name.
        public var title: String
        /// Output files removed, relative to the output folder.
        public var removed: [String] = []
        /// Output files kept, with why (`<path>: <reason>`).
        public var kept: [String] = []
    }

    /// Removes `record` from `store` and its output files from `outputDirectory`.
    ///
    /// - Throws: `CatalogError.notFound` when there is no such record, `.io` when the output
    ///   folder belongs to another catalog, or a store error (then nothing was changed).
    public static func remove(_ record: RecordRef, store: CatalogStore, outputDirectory: String) throws -> Outcome {
        let ownership = OutputFolder(root: outputDirectory).ownership(catalogID: try store.catalogID())
        if case .other(let id) = ownership { throw CatalogBuilder.foreignFolderError(outputDirectory, id: id) }
        let (title, rows, sources) = try store.write { tx in
            let title: String
            switch record.kind {
            case .bug: title = try tx.requireBug(id: record.id).title
            case .food: title = try tx.requireFood(id: record.id).name
            default:
                throw CatalogError.invalidRecord(path: record.description, reason: "only bugs and foods can be removed")
            }
            let sources = try tx.bugs().compactMap(\.image?.path) + tx.foods().compactMap(\.image?.path)
            let rows = try tx.deleteOutputs(for: record)
            switch record.kind {
            case .bug: try tx.deleteBug(id: record.id)
            default: try tx.deleteFood(id: record.id)
            }
            // A file another row still names (a rating strip two bugs share) stays.
            let stillUsed = Set(try tx.outputs().map(\.path))
            return (title, rows.filter { !stillUsed.contains($0.path) }, sources)
        }
        var outcome = Outcome(record: record, title: title)
        let root = realPath(outputDirectory)
        for row in rows {
            if let reason = refusal(
                row.path, root: root, outputDirectory: outputDirectory, sources: sources, owned: ownership == .own)
            {
                outcome.kept.append("\(row.path): \(reason)")
            } else if OutputFolder(root: outputDirectory).remove(row.path) {
                outcome.removed.append(row.path)
            }
        }
        return outcome
    }

    /// Why the output file at `relative` must not be removed, or nil when it may be (or is
    /// already gone: then there is nothing to remove). `owned`: the folder's marker names this
    /// catalog.
    static func refusal(
        _ relative: String, root: String?, outputDirectory: String, sources: [String], owned: Bool
    ) -> String? {
        guard OutputNaming.isSafeRelativePath(relative) else { return "not a path inside the output folder" }
        let file = outputDirectory + "/" + relative
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        guard owned else { return "the output folder is not this catalog's (no \(OutputFolder.markerName) naming it)" }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return "not a regular file" }
        guard let root, let folder = realPath((file as NSString).deletingLastPathComponent),
            folder == root || folder.hasPrefix(root + "/")
        else { return "outside the output folder once links are resolved" }
        if sources.contains(where: { FileIO.isSameFile($0, file) }) { return "a record's source picture" }
        return nil
    }

    /// `path` with every link and `..` resolved, nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
