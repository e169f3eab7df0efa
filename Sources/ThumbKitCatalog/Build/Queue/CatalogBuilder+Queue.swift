// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// A full build's two ends when it runs through the build queue: the planning pass that queues
/// every stale record, and the sweep that ends it.
///
/// The planning mirrors the first half of `build(only:)` (same `BuildPlanner` and
/// `BuildUnit.isCurrent`), so what it queues is exactly what a single build would make. It is
/// kept apart here so that `build(only:)` can change inside without the queue noticing.
extension CatalogBuilder {
    /// What the planning pass found.
    public struct QueuePlan: Sendable, Hashable {
        /// Records queued (stale, the app included when its shared files need work).
        public var queued: [RecordRef] = []
        /// Outputs of current records (counted once, here, as a single build counts them).
        public var upToDate = 0
        /// Whether the output folder already belonged to this catalog (a folder a build is
        /// only now claiming has nothing removed from it, so it is not swept at the end).
        public var folderOwned = false
        /// Why nothing was queued: the output folder holds a source picture, or belongs to
        /// another catalog (the one line a single build reports for that).
        public var refusal: String?
    }

    /// Queues every stale record (and the `app` entry when the rating strips, app icons or
    /// `Contents.json` need work), and removes the rows of records that are current, nobody
    /// holding them. Reads the records and changes the queue in one write transaction holding
    /// the write lock exclusively, so a change committed after it queues its record again and
    /// no shared commit settles a row between the read and the drop.
    public func planQueue(_ queue: BuildQueue, now: Date) throws -> QueuePlan {
        let folder = OutputFolder(root: outputDirectory)
        let recipes = self.recipes
        return try store.write { tx in
            var plan = QueuePlan()
            let (bugs, foods, assets, rows) = (try tx.bugs(), try tx.foods(), try tx.assets(), try tx.outputs())
            let ownership = folder.ownership(catalogID: try tx.catalogID())
            plan.folderOwned = ownership == .own
            // The checks a full build makes first, once, rather than a failure per record.
            let sources = Self.sourcePaths(bugs: bugs, foods: foods, assets: assets)
            plan.refusal = Self.sourceInsideOutput(sources, root: outputDirectory)
            if plan.refusal == nil, case .other(let id) = ownership {
                plan.refusal = Self.foreignFolderLine(folder.root, id: id)
            }
            if plan.refusal != nil { return plan }
            let planner: BuildPlanner
            do {
                // No icons set is nil, not a failure (`try?` would fold the two together, and a
                // catalog without rating icons would have its app entry queued on every build).
                planner = BuildPlanner(
                    recipes: recipes, icons: try RatingIconSources.load(assets), iconsUnavailable: false,
                    halfGiven: assets.ratingHalf != nil)
            } catch {
                // The build of the app entry reports why the icons cannot be read.
                planner = BuildPlanner(
                    recipes: recipes, icons: nil, iconsUnavailable: true, halfGiven: assets.ratingHalf != nil)
            }
            let logo: Result<ImageRef, CatalogError>? = assets.logo.map { path in
                do throws(CatalogError) {
                    return .success(try ImageRef.load(path: path))
                } catch {
                    return .failure(error)
                }
            }
            let units =
                [planner.appUnit(full: true, logo: logo)] + bugs.map(planner.unit(for:))
                + foods.map(planner.unit(for:))
            let rowsByRecord = Dictionary(grouping: rows, by: \.record)
            var current: [RecordRef] = []
            for unit in units {
                let check = unit.isCurrent(rows: rowsByRecord[unit.record] ?? [], folder: folder)
                // A folder not yet this catalog's: the app entry's build creates and claims it
                // (or reports whose it is), as a single build always does.
                let claimsFolder = unit.record == .app && !plan.folderOwned
                if check.current, !claimsFolder {
                    if unit.countsUpToDate { plan.upToDate += check.outputs }
                    current.append(unit.record)
                } else {
                    plan.queued.append(unit.record)
                }
            }
            try queue.plan(stale: plan.queued, current: current, now: now, in: tx)
            return plan
        }
    }

    /// The end of a queued full build that did not build the `app` entry itself (whose build
    /// sweeps): removes files of the build's folders that no row describes, as `build()` does.
    /// Nothing is removed from a folder this build only now claimed (`plan.folderOwned` false).
    public func sweepAfterQueue(_ plan: QueuePlan, started: Date) throws -> Int {
        guard plan.folderOwned else { return 0 }
        var folder = OutputFolder(root: outputDirectory)
        let (bugs, foods, assets) = try store.read { tx in (try tx.bugs(), try tx.foods(), try tx.assets()) }
        let sources = Self.sourcePaths(bugs: bugs, foods: foods, assets: assets)
        guard Self.sourceInsideOutput(sources, root: outputDirectory) == nil else { return 0 }
        folder.protectedFiles = Set(sources.compactMap { OutputFolder.FileIdentity(path: $0.path) })
        return try sweep(folder, before: started)
    }
}
