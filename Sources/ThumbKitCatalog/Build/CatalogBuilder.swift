// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import ThumbKit

/// Makes the files the catalog's records need (recipe outputs, rating strips, app icons) in an
/// output folder, and records each one in the catalog.
///
/// A build is incremental: an output is made only when its row is missing, its source's hash
/// or recipe identifier changed, or its file is gone or has another size. A second build with
/// nothing changed writes no file (`0 made, N up to date`). Outputs no recipe wants any more are
/// removed, rows and files.
///
/// Records are built in parallel (`jobs`); each record's source is decoded once for all its
/// recipes and scales, its files written atomically, then its rows recorded in one
/// transaction. A failure on one record is reported and the others are still done.
///
/// ### Crash safety
/// Files are written before their rows, under names tagged with their content, and old files
/// are removed only after the rows that replaced them are committed. A build killed at any
/// point (SIGKILL included) leaves every row describing a complete file; a rerun rewrites files
/// that have no row yet and finishes the rest. A full build starts by removing temporary files
/// left by dead writers (`removeStrayTemporaries()` does only that, for the start of `watch`)
/// and ends by removing files of its folders that no row describes and that are named as it
/// names outputs. Nothing is written beside the database.
///
/// ### Cost
/// A build of some records (each file a watch folder ingests, `catalog rate`, `set-image`)
/// reads only those records, their rows and the app's (the shared strips), and looks only at
/// their files: its cost does not grow with the catalog or the output folder.
///
/// ### What it never touches
/// A build refuses an output folder that holds any source picture (a record's, the logo, a
/// rating icon), and one that another catalog claimed (`OUT/.thumbkit-catalog` holds the id of
/// the catalog that first built there). It removes nothing in a folder it is only now
/// claiming, and never a file that is some record's source.
///
/// ### Concurrency
/// Builders on other records may run at the same time, in this process or another (a watch
/// folder building the records it imports while a full build runs): every record commits in
/// its own transaction, and shared files are checked and swept only while the database's write
/// lock is held.
public struct CatalogBuilder: Sendable {
    /// The catalog.
    public let store: CatalogStore
    /// Where the files go.
    public let outputDirectory: String
    /// What each kind of record needs, and how rating strips look.
    public let recipes: RecipeBook
    /// Records built in parallel (at least 1).
    public let jobs: Int
    /// Size, pixel and time limits for each source picture, as `thumb` applies them: a source
    /// over them fails (one line) and the rest of the build goes on.
    public let limits: ImageLimits
    /// The one memory-heavy decode at a time of every build this builder (and its copies) runs:
    /// the lanes of a queued build each build their own batch, so the slot is shared here.
    package let heavySlot: HeavyDecodeSlot
    /// Told between a sweep's walk and its removals (a seam for tests; nil in production).
    package var sweepPoints: (any SweepPoints)?

    /// A builder; `limits` are the engine's defaults unless given.
    public init(
        store: CatalogStore, outputDirectory: String, recipes: RecipeBook = .defaults,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, limits: ImageLimits = ImageLimits()
    ) {
        self.init(
            store: store, outputDirectory: outputDirectory, recipes: recipes, jobs: jobs, limits: limits,
            heavySlot: HeavyDecodeSlot())
    }

    /// This builder with `jobs` jobs, building through `store` (this one's, or a sibling
    /// connection to the same catalog), sharing this builder's one heavy-decode slot.
    package func with(store: CatalogStore, jobs: Int) -> CatalogBuilder {
        var copy = CatalogBuilder(
            store: store, outputDirectory: outputDirectory, recipes: recipes, jobs: jobs, limits: limits,
            heavySlot: heavySlot)
        copy.sweepPoints = sweepPoints
        return copy
    }

    private init(
        store: CatalogStore, outputDirectory: String, recipes: RecipeBook, jobs: Int, limits: ImageLimits,
        heavySlot: HeavyDecodeSlot
    ) {
        self.store = store
        self.outputDirectory = outputDirectory
        self.recipes = recipes
        self.jobs = max(1, jobs)
        self.limits = limits
        self.heavySlot = heavySlot
    }

    /// Makes what is missing or stale for `records` (nil = every record, plus rating strips and
    /// app icons), removes outputs no recipe wants. Safe to call concurrently with other
    /// builders on other records.
    ///
    /// - Parameters:
    ///   - records: the records to build; records that do not exist are skipped. The rating
    ///     strips a bug points at are made when missing. Only a full build (nil, or a list that
    ///     includes `RecordRef.app`) makes the app icons and sweeps files no row describes.
    ///   - progress: `(done, total)` after each record that had work (from worker threads).
    ///   - onFailure: each failure line, `<path>: <reason>`, as it happens (from worker threads).
    ///   - onNote: a line that explains why nothing was removed (the build just claimed a folder
    ///     that already held files).
    ///   - commitGuard: run first and last inside each record's row-commit transaction (the
    ///     build queue's fence, see `BuildCommitGuard`); throwing rolls that record's rows back.
    public func build(
        only records: [RecordRef]? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil,
        onFailure: (@Sendable (String) -> Void)? = nil, onNote: ((String) -> Void)? = nil,
        commitGuard: BuildCommitGuard? = nil  // scale-out: the queue's fenced commit
    ) -> BuildReport {
        build(
            only: records, prepared: nil, progress: progress, onFailure: onFailure, onNote: onNote,
            commitGuard: commitGuard)
    }

    /// `build(only:progress:onFailure:onNote:commitGuard:)`, making the outputs of the source
    /// `prepared` was rendered from out of that render instead of decoding it again.
    package func build(
        only records: [RecordRef]?, prepared: PreparedImage?, progress: (@Sendable (Int, Int) -> Void)? = nil,
        onFailure: (@Sendable (String) -> Void)? = nil, onNote: ((String) -> Void)? = nil,
        commitGuard: BuildCommitGuard? = nil
    ) -> BuildReport {
        build(
            only: records, prepared: prepared, progress: progress, onFailure: onFailure, onNote: onNote,
            commitGuard: commitGuard, snapshot: nil)
    }

    /// The same, from `snapshot` when given: what the build reads first, already read for
    /// `records` (a writer's own claim reads it in the transaction of its change, `claimOwn`);
    /// nil reads it here.
    func build(
        only records: [RecordRef]?, prepared: PreparedImage?, progress: (@Sendable (Int, Int) -> Void)? = nil,
        onFailure: (@Sendable (String) -> Void)? = nil, onNote: ((String) -> Void)? = nil,
        commitGuard: BuildCommitGuard? = nil, snapshot given: BuildSnapshot?
    ) -> BuildReport {
        let started = Date()
        var folder = OutputFolder(root: outputDirectory)
        var report = BuildReport()
        func fail(_ line: String) {
            report.fail(line)
            onFailure?(line)
        }
        let units: [(unit: BuildUnit, rows: [OutputRecord])]
        // A build of some records reads, writes and checks only theirs (see `BuildSnapshot`);
        // the stray temporary files and the sweep are a full build's.
        let full = records == nil || records!.contains(.app)
        do {
            try folder.create()
            let snapshot =
                try given
                ?? store.read { tx in
                    full ? try BuildSnapshot.all(tx) : try BuildSnapshot.of(records ?? [], tx)
                }
            // Read with the snapshot; made (a write) only by the catalog's first build.
            let catalogID = try snapshot.catalogID ?? store.catalogID()
            let sources = Self.sourcePaths(bugs: snapshot.bugs, foods: snapshot.foods, assets: snapshot.assets)
            if let line = Self.sourceInsideOutput(sources, root: outputDirectory) {
                fail(line)
                return report
            }
            folder.protectedFiles = Set(sources.compactMap { OutputFolder.FileIdentity(path: $0.path) })
            if !full { folder.guardOtherSources(store) }
            if let line = try Self.claim(&folder, catalogID: catalogID, note: { onNote?($0) }) {
                fail(line)
                return report
            }
            if full { folder.removeStrayTempFiles(now: started) }
            var planner: BuildPlanner
            do {
                planner = BuildPlanner(
                    recipes: recipes, icons: try RatingIconSources.load(snapshot.assets), iconsUnavailable: false,
                    halfGiven: snapshot.assets.ratingHalf != nil)
            } catch {
                fail(error.description)
                planner = BuildPlanner(
                    recipes: recipes, icons: nil, iconsUnavailable: true, halfGiven: snapshot.assets.ratingHalf != nil)
            }
            let rowsByRecord = Dictionary(grouping: snapshot.rows, by: \.record)
            let wanted = records.map(Set.init)
            var planned: [BuildUnit] = []
            if full || wanted!.contains(where: { $0.kind == .bug }) {
                let logo = full ? Self.logo(snapshot.assets) : nil
                if case .failure(let error) = logo { fail(error.description) }
                planned.append(planner.appUnit(full: full, logo: logo))
            }
            planned += snapshot.bugs.filter { wanted?.contains($0.ref) ?? true }.map { planner.unit(for: $0) }
            planned += snapshot.foods.filter { wanted?.contains($0.ref) ?? true }.map { planner.unit(for: $0) }
            units = planned.map { ($0, rowsByRecord[$0.record] ?? []) }
        } catch {
            fail(UnitBuild.line(error))
            return report
        }

        // Units with nothing to do are counted without reading their sources.
        var work: [(unit: BuildUnit, rows: [OutputRecord])] = []
        for entry in units {
            let check = entry.unit.isCurrent(rows: entry.rows, folder: folder)
            if check.current {
                if entry.unit.countsUpToDate { report.upToDate += check.outputs }
            } else {
                work.append(entry)
            }
        }
        report.add(
            run(
                work, folder: folder, prepared: prepared, progress: progress, onFailure: onFailure,
                commitGuard: commitGuard))
        // A queue worker's batch commits before the sweep, which would take its files.
        commitGuard?.batch?.flush()

        if full {
            do {
                report.removed += try sweep(folder, before: started)
            } catch {
                fail(UnitBuild.line(error))
            }
        }
        return report
    }

    /// Runs `work`: the app's unit first (bugs' rating rows point at its strips), then the
    /// records in parallel.
    private func run(
        _ work: [(unit: BuildUnit, rows: [OutputRecord])], folder: OutputFolder, prepared: PreparedImage?,
        progress: (@Sendable (Int, Int) -> Void)?, onFailure: (@Sendable (String) -> Void)?,
        commitGuard: BuildCommitGuard? = nil
    ) -> BuildReport {
        let total = work.count
        let done = Atomic<Int>(0)
        let merged = Locked(BuildReport())
        let builder = self
        let style = recipes.ratingStrip
        /// Builds one unit and merges its report; nothing when it was put back (a heavy decode
        /// while another is in flight), since the scheduler hands it out again.
        @Sendable func perform(
            _ entry: (unit: BuildUnit, rows: [OutputRecord]), threads: Int, scheduler: (BatchScheduler, index: Int)?
        ) {
            guard
                var result = UnitBuild(
                    unit: entry.unit, rows: entry.rows, folder: folder, store: builder.store, style: style,
                    limits: builder.limits, threads: threads, commitGuard: commitGuard, prepared: prepared,
                    scheduler: scheduler
                ).run()
            else { return }
            if !entry.unit.countsUpToDate { result.upToDate = 0 }
            for line in result.failures { onFailure?(line) }
            merged.withLock { $0.add(result) }
            progress?(done.add(1, ordering: .relaxed).newValue, total)
        }
        let app = work.filter { $0.unit.record == .app }
        let records = work.filter { $0.unit.record != .app }
        for entry in app { perform(entry, threads: jobs, scheduler: (BatchScheduler(order: [], slot: heavySlot), 0)) }
        let workers = min(jobs, max(1, records.count))
        // Fewer records than workers: give the spare threads to each image's rows.
        let threads = max(1, jobs / workers)
        // As `thumb` schedules files: largest source first on several workers, and never two
        // memory-heavy decodes at once, here or in another lane of this builder (`BatchScheduler`).
        let order =
            workers == 1
            ? Array(records.indices) : BatchScheduler.largestFirst(records.map { $0.unit.image?.path ?? "" })
        let scheduler = BatchScheduler(order: order, slot: heavySlot)
        WorkQueue.drain(workers: workers) {
            scheduler.take()
        } body: { index in
            perform(records[index], threads: threads, scheduler: (scheduler, index))
        }
        return merged.withLock { $0 }
    }

    /// The logo, hashed: nil when none is set.
    private static func logo(_ assets: CatalogAssets) -> Result<ImageRef, CatalogError>? {
        guard let path = assets.logo else { return nil }
        do {
            return .success(try ImageRef.load(path: path))
        } catch {
            return .failure(error)
        }
    }

    /// Removes files of the build's folders that no row describes (left by a killed build, a
    /// deleted record, or a retitled one), and `Contents.json` when there are no icons.
    ///
    /// The walk of the folder (seconds for 200,000 outputs) runs outside any transaction,
    /// against the rows of a read snapshot, so no commit waits for it. Only the removal holds
    /// the database's write lock exclusively (`WriteLockMode.exclusive`), so no other build
    /// commits meanwhile, shared commits included; under it each candidate is checked again,
    /// against the rows as they are then and the file as it is then: a file a commit recorded
    /// since the walk, or one written since `before`, stays. A file that lost its row after the
    /// snapshot is left for the next sweep.
    func sweep(_ folder: OutputFolder, before: Date) throws -> Int {  // internal: CatalogBuilder+Queue ends with it
        let described = try store.read { tx in try tx.outputPaths() }
        let candidates = folder.sweepCandidates(referenced: described, keep: [AppIcon.contentsPath], before: before)
        sweepPoints?.walked(candidates: candidates)
        return try store.write { tx in
            if try !tx.outputs(for: .app).contains(where: { $0.kind == .icon }),
                folder.fileSize(AppIcon.contentsPath) != nil
            {
                folder.remove(AppIcon.contentsPath)
            }
            guard !candidates.isEmpty else { return 0 }
            return folder.removeUnreferenced(candidates, referenced: try tx.outputPaths(), before: before)
        }
    }
}
