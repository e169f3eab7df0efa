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
        /// Whether this build planned: false when another build's planning pass, begun after
        /// this one started, planned the same recipes and folder for it (`PlanningTurn`); then
        /// nothing was queued or counted here.
        public var planned = true
    }

    /// Queues every stale record (and the `app` entry when the rating strips, app icons or
    /// `Contents.json` need work), and removes the rows of records that are current, nobody
    /// holding them.
    ///
    /// The file work (a `stat` per output, the icons and the logo hashed) runs first, against a
    /// read snapshot and holding no lock, so no commit waits for it. The queue then changes in
    /// one write transaction holding the write lock exclusively, so a change committed after it
    /// queues its record again and no shared commit settles a row between the read and the
    /// drop. In it the records and rows are read again (no file work), and only a record whose
    /// row, outputs or settings changed since the snapshot is checked again (the `app` entry,
    /// which depends on every bug's rating, always is; a change of the catalog's settings
    /// checks everything again).
    ///
    /// Builds started together plan once (`PlanningTurn`): a build that finds a pass begun
    /// at or after `since` (when the build started; by default `now`) waits up to `wait` for
    /// it to end, and uses it when it planned the same recipes and folder.
    public func planQueue(_ queue: BuildQueue, now: Date, since: Date? = nil, wait: Duration = .seconds(30)) throws
        -> QueuePlan
    {
        let folder = OutputFolder(root: outputDirectory)
        let turn = PlanningTurn(builder: self, wait: wait)
        let since = since ?? now
        let pass: PlanningTurn.Pass
        if let taken = try turn.take(since: since, now: Date(), store) {
            pass = taken
        } else if try turn.awaitEnd(since: since, store) {
            var plan = QueuePlan()
            plan.planned = false
            plan.folderOwned = folder.ownership(catalogID: try store.catalogID()) == .own
            return plan
        } else {
            pass = try turn.takeAnyway(now: Date(), store)
        }
        let catalogID = try store.catalogID()
        let early = try store.read { tx in try QueueSurvey(tx, catalogID: catalogID) }
        let earlyPlan = QueuePlanning(survey: early, builder: self, folder: folder)
        if earlyPlan.plan.refusal != nil {
            try turn.finish(pass, refused: true, alone: store)
            return earlyPlan.plan
        }
        let verdicts = Dictionary(earlyPlan.verdicts(reusing: nil), uniquingKeysWith: { first, _ in first })
        return try store.write { tx in
            let survey = try QueueSurvey(tx, catalogID: try tx.catalogID())
            let planning =
                survey.assets == early.assets && survey.catalogID == early.catalogID
                ? earlyPlan.updated(to: survey) : QueuePlanning(survey: survey, builder: self, folder: folder)
            try turn.finish(pass, refused: planning.plan.refusal != nil, in: tx.db)
            if planning.plan.refusal != nil { return planning.plan }
            var plan = planning.plan
            var current: [RecordRef] = []
            for (record, verdict) in planning.verdicts(reusing: (early, verdicts)) {
                if verdict.current {
                    plan.upToDate += verdict.upToDate
                    current.append(record)
                } else {
                    plan.queued.append(record)
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
