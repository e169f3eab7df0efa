// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// One unit's made files waiting for their rows: committed alone (`commitAlone`, a transaction
/// of its own, as every unit was), or with the other records of a worker's `CommitBatch` in one
/// transaction (`record(in:)` inside it, after the batch's fence held for the record).
struct PendingCommit: Sendable {
    let build: UnitBuild
    let made: [UnitBuild.Made]
    let hashUpdate: ImageRef?
    let iconContents: Data?
    /// The failures the build met before its commit.
    let failures: [String]

    var record: RecordRef { build.unit.record }

    /// Records the rows in a transaction of their own (fenced by the unit's guard, if any),
    /// then removes the files no row describes any more.
    func commitAlone() throws -> BuildReport {
        let store = build.store
        let guarded = build.commitGuard
        let record = self.record
        let report: BuildReport
        let orphans: [String]
        do {
            // A fenced bug/food commit runs beside other such commits (the fence row-locks its
            // queue row first, and it writes only its own record's rows and tagged files); the
            // app unit (shared strips, app icons, `Contents.json`) and any unfenced commit
            // exclude every other writer. Docs: `WriteLockMode`, docs/scale-out.md "Locks".
            let mode: WriteLockMode = guarded != nil && record.kind != .app ? .shared : .exclusive
            (report, orphans) = try store.write(mode: mode) { tx -> (BuildReport, [String]) in
                try guarded?.check(tx, record)  // scale-out: before any row; throwing rolls back
                let fenced = guarded?.fencesRecords == true && record.kind != .app
                let (report, orphans, recorded, rows) = try self.record(in: tx, fenced: fenced)
                // Settles the queue row.
                if recorded { try guarded?.finish(tx, record, failures + report.failures, rows) }
                return (report, orphans)
            }
        } catch {
            // Refused (a lost claim) or failed: nothing was recorded, so nothing describes the
            // files this build wrote.
            removeUnrecorded()
            throw error
        }
        removeOrphans(orphans)
        return report
    }

    /// Removes the files this build wrote that no row describes, in a transaction of its own.
    /// Exclusive: a shared commit of the record's new owner may be between finding such a file
    /// in place and recording it.
    func removeUnrecorded() {
        if !made.isEmpty { try? build.store.write { tx in try build.removeUnrecorded(made, in: tx) } }
    }

    /// Removes the old files `record(in:)` returned, once its transaction committed.
    func removeOrphans(_ orphans: [String]) {
        for path in orphans { build.folder.remove(path) }
    }

    /// The rows, inside `tx` (whose fence, if any, held): returns the report, the old files no
    /// row describes any more, whether anything was recorded (false when the record went
    /// or changed while its files were made: its queue row is then left to the change, which
    /// queued it again, as it always was), and how many output rows the record has now.
    ///
    /// `fenced`: the queue's fence held for the record in `tx` (a batch's, or the guard's of a
    /// writer's own claim, read after the claim as a worker's snapshot is). The record is then not
    /// read again: every change of a built column (title or name, category, picture, its hash)
    /// and its deletion reset or remove its queue row (the schema's triggers), so a fence that
    /// held proves the record is as the build's snapshot (read after the claim) saw it. Nor are
    /// its output rows: besides its deletion, only a commit holding the record's claim writes
    /// them (this one, fenced), so they are still the snapshot's (`UnitBuild.rows`).
    func record(in tx: CatalogTransaction, fenced: Bool = false) throws -> (BuildReport, [String], Bool, Int) {
        guard let staged = try stage(in: tx, fenced: fenced) else { return (BuildReport(), [], false, 0) }
        try tx.upsertOutputs(staged.rows)
        let (report, orphans, count) = try finish(staged, in: tx)
        return (report, orphans, true, count)
    }

    /// `record(in:fenced:)` up to its output rows, which it returns to be written (a
    /// `CommitBatch` writes a whole batch's in one statement): the record checked or its hash
    /// updated, missing files written again. Nil when nothing is to be recorded (the record
    /// went or changed; the files this build wrote are removed).
    func stage(in tx: CatalogTransaction, fenced: Bool) throws -> Staged? {
        let unit = build.unit
        let folder = build.folder
        var report = BuildReport()
        // The record may have gone or changed while its files were made (a new picture, or a
        // new title, which names its folder): nothing is recorded, the files this build
        // wrote go (the change queued the record again, and whoever made it builds it anew).
        switch record.kind {
        case .bug where fenced, .food where fenced:
            if let hashUpdate, record.kind == .bug { _ = try tx.setImage(bugID: record.id, image: hashUpdate) }
            if let hashUpdate, record.kind == .food { _ = try tx.setImage(foodID: record.id, image: hashUpdate) }
        case .bug:
            guard let bug = try tx.bug(id: record.id), bug.image?.path == unit.image?.path, bug.title == unit.title
            else {
                try build.removeUnrecorded(made, in: tx)
                return nil
            }
            if let hashUpdate, bug.image == unit.image { try tx.setImage(bugID: record.id, image: hashUpdate) }
        case .food:
            guard let food = try tx.food(id: record.id), food.image?.path == unit.image?.path, food.name == unit.title
            else {
                try build.removeUnrecorded(made, in: tx)
                return nil
            }
            if let hashUpdate, food.image == unit.image { try tx.setImage(foodID: record.id, image: hashUpdate) }
        case .app:
            break
        }
        // The record's rows, read once (the snapshot's, when fenced): the old name of a remade
        // output, and the rows no recipe wants (the keys made here are all wanted ones).
        let existing = fenced ? build.rows : try tx.outputs(for: record)
        let old = Dictionary(existing.map { ($0.values.key, $0) }, uniquingKeysWith: { first, _ in first })
        var keys = Set(old.keys)  // the record's rows once this is committed
        var candidates: [String] = []
        var rows: [OutputValues] = []
        for item in made {
            let output = item.output
            let size: Int
            if let bytes = item.bytes {
                // A concurrent build's sweep may have taken the file: the lock is held now.
                if folder.fileSize(output.path) != bytes.count {
                    try folder.requireReplaceable(output.path)
                    try FileIO.writeAtomically(bytes, to: folder.absolute(output.path))
                }
                size = bytes.count
            } else if let existing = folder.fileSize(output.path) {
                size = existing
            } else {
                report.fail("\(folder.absolute(output.path)): the shared file is missing; run the build again")
                continue
            }
            if let old = old[output.key], old.values.path != output.path {
                // Remade under another name (a new source, title or recipe): the old output
                // goes, and counts as removed (`catalog rename` and `set-image` said 0).
                candidates.append(old.values.path)
                report.removed += 1
            }
            rows.append(
                OutputValues(
                    record: record, recipe: output.key.recipe, kind: output.kind, scale: output.key.scale,
                    path: output.path, width: item.width, height: item.height, format: output.format, bytes: size,
                    sourceSHA256: output.sourceSHA256))
            keys.insert(output.key)
            report.made += 1
        }
        return Staged(report: report, rows: rows, existing: existing, keys: keys, candidates: candidates)
    }

    /// The rest of `record(in:fenced:)` once `staged.rows` are written: the rows no recipe wants
    /// deleted, the icon set's `Contents.json`, and the old files no row names any more
    /// (returned, to be removed after the commit), with how many rows the record has now.
    func finish(_ staged: Staged, in tx: CatalogTransaction) throws -> (BuildReport, [String], Int) {
        var (report, keys, candidates) = (staged.report, staged.keys, staged.candidates)
        let existing = staged.existing
        let unit = build.unit
        if unit.removesUnwanted {
            let wanted = unit.wantedKeys
            let removed = existing.filter { !wanted.contains($0.values.key) }
            try tx.deleteOutputs(removed)
            keys.subtract(removed.map(\.values.key))
            report.removed += removed.count
            candidates += removed.map(\.values.path)
        }
        // The one output whose name is not tagged with its content: written last, once the
        // rows it names are in place, under the fence's lock (the write lock, and on
        // PostgreSQL the queue row's FOR UPDATE), so no lost claim can reach it.
        if let iconContents { try build.writeIconContents(iconContents) }
        let orphans = try Set(candidates).filter { try !tx.isOutputPathReferenced($0) }
        return (report, orphans.sorted(), keys.count)
    }

    /// A record's commit between `stage` and `finish`: its report so far, the output rows to
    /// write, the rows it had, its keys once written, and the old paths that may be orphaned.
    struct Staged {
        var report: BuildReport
        var rows: [OutputValues]
        var existing: [OutputRecord]
        var keys: Set<OutputKey>
        var candidates: [String]
    }
}
