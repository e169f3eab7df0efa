// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a build checks before it writes anything: that no source lives inside the output
/// folder, and that the folder belongs to its catalog (see `OutputFolder.Ownership`).
extension CatalogBuilder {
    /// The catalog's pictures: every record's source, the logo and the rating icons.
    static func sourcePaths(bugs: [Bug], foods: [Food], assets: CatalogAssets) -> [(owner: String, path: String)] {
        bugs.compactMap { bug in bug.image.map { ("bug \(bug.id)", $0.path) } }
            + foods.compactMap { food in food.image.map { ("food \(food.id)", $0.path) } }
            + [
                ("the logo", assets.logo), ("the empty rating icon", assets.ratingEmpty),
                ("the half rating icon", assets.ratingHalf), ("the full rating icon", assets.ratingFull),
            ]
            .compactMap { owner, path in path.map { (owner, $0) } }
    }

    /// The one failure line when the output folder at `root` holds any of `sources` (after
    /// resolving symbolic links), or nil. Such a build is refused: the sweep and the outputs'
    /// renames must never be able to reach a source.
    static func sourceInsideOutput(_ sources: [(owner: String, path: String)], root: String) -> String? {
        guard let folder = realPath(root) else { return nil }
        let prefix = folder == "/" ? "/" : folder + "/"
        let inside = sources.filter { source in realPath(source.path).map { $0.hasPrefix(prefix) } ?? false }
        guard let first = inside.first else { return nil }
        let more = inside.count > 1 ? " and \(inside.count - 1) more" : ""
        return "\(root): the output folder contains \(first.owner)'s source '\(first.path)'\(more); "
            + "nothing was built: give --out a folder that holds no source pictures"
    }

    /// Settles who owns `folder` before a build writes: claims an unclaimed folder (removing
    /// nothing there on this build), and returns a failure line for a folder another catalog
    /// owns. `note` gets one line when removals are held back.
    static func claim(_ folder: inout OutputFolder, catalogID: String, note: (String) -> Void) throws -> String? {
        var ownership = folder.ownership(catalogID: catalogID)
        if ownership == .unclaimed {
            let hadFiles = !folder.files(in: OutputFolder.ownedFolders, includeHidden: false).isEmpty
            ownership = try folder.claim(catalogID: catalogID)
            if ownership == .own {
                folder.removalsAllowed = false
                if hadFiles {
                    note(
                        "\(folder.root): this catalog now owns the output folder (\(OutputFolder.markerName)); "
                            + "files already there were left alone, later builds remove unwanted outputs")
                }
            }
        }
        if case .other(let id) = ownership { return foreignFolderLine(folder.root, id: id) }
        return nil
    }

    /// The refusal of an output folder whose marker names another catalog.
    static func foreignFolderLine(_ root: String, id: String) -> String {
        foreignFolderError(root, id: id).description
    }

    /// The refusal of an output folder whose marker names another catalog, as an error (for
    /// `catalog remove`, which refuses it before it deletes anything).
    static func foreignFolderError(_ root: String, id: String) -> CatalogError {
        .io(
            path: root,
            reason: "the output folder belongs to another catalog (\(OutputFolder.markerName): \(id)); "
                + "nothing was built or removed: use another --out, or delete the marker to hand the folder to this catalog"
        )
    }

    /// `path` with symbolic links resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
