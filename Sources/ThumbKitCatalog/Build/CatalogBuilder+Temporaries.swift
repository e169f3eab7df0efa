// SPDX-License-Identifier: Apache-2.0
import Foundation

extension CatalogBuilder {
    /// Removes the temporary files dead writers left anywhere below the output folder
    /// (`OutputFolder.removeStrayTempFiles(now:)`), as a full build does first; for the start
    /// of `watch`, whose builds of one record each never walk the folder. Removes nothing in a
    /// folder this catalog does not own or that holds a source picture, and never claims one.
    ///
    /// - Returns: how many files were removed.
    /// - Throws: a store error (`CatalogError.locked`, `.corrupt`).
    @discardableResult
    public func removeStrayTemporaries(now: Date = Date()) throws -> Int {
        var folder = OutputFolder(root: outputDirectory)
        let catalogID = try store.catalogID()
        guard folder.ownership(catalogID: catalogID) == .own else { return 0 }
        let snapshot = try store.read { tx in
            (bugs: try tx.bugs(), foods: try tx.foods(), assets: try tx.assets())
        }
        let sources = Self.sourcePaths(bugs: snapshot.bugs, foods: snapshot.foods, assets: snapshot.assets)
        guard Self.sourceInsideOutput(sources, root: outputDirectory) == nil else { return 0 }
        folder.protectedFiles = Set(sources.compactMap { OutputFolder.FileIdentity(path: $0.path) })
        return folder.removeStrayTempFiles(now: now)
    }
}
