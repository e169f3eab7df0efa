// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

extension InboxIngestor {
    /// The record `target` names, with its image, if it exists.
    static func find(_ target: InboxLayout.Target, in tx: CatalogTransaction) throws(CatalogError) -> (
        ref: RecordRef, image: ImageRef?
    )? {
        switch target {
        case .bug(let title):
            return try tx.bug(title: title).map { ($0.ref, $0.image) }
        case .food(let category, let name):
            return try tx.food(category: category, name: name).map { ($0.ref, $0.image) }
        }
    }

    /// Creates or updates the record `target` names so its image is `image` (and, for a bug
    /// with a sidecar, its rating `rating`; a new bug without one gets 0). Returns the record as
    /// written and how to undo the change: `pendingUndo` when an earlier, interrupted attempt
    /// already made the change (its undo data describes the record before that attempt).
    ///
    /// The caller's transaction holds the shared lock (`WriteLockMode.claim`): an existing
    /// record's queue row is locked before it changes (`BuildQueue.lockRow`), as a worker's
    /// fenced commit locks it before it touches the record.
    ///
    /// `likelyNew`: the look-up before the transaction found no such record, so the record is
    /// inserted first (`…UnlessTaken`: the name's conflict is the insert's own), and looked up
    /// only when another writer took the name meanwhile; otherwise it is looked up first.
    static func apply(
        _ target: InboxLayout.Target, image: ImageRef, rating: Rating?, pendingUndo: IngestUndo?, likelyNew: Bool,
        queue: BuildQueue, in tx: CatalogTransaction
    ) throws(CatalogError) -> (record: WrittenRecord, undo: IngestUndo) {
        switch target {
        case .bug(let title):
            if likelyNew, let bug = try tx.addBugUnlessTaken(title: title, rating: rating ?? .zero, image: image) {
                return (.bug(bug, created: true), pendingUndo ?? IngestUndo(created: true))
            }
            if let bug = try tx.bug(title: title) {
                try queue.lockRow(of: bug.ref, in: tx)
                let undo = pendingUndo ?? IngestUndo(created: false, image: bug.image, rating: bug.rating.value)
                var written = try tx.setImage(bugID: bug.id, image: image)
                if let rating { written = try tx.rate(bugID: bug.id, rating: rating.value) }
                return (.bug(written, created: false), undo)
            }
            let bug = try tx.addBug(title: title, rating: rating ?? .zero, image: image)
            return (.bug(bug, created: true), pendingUndo ?? IngestUndo(created: true))
        case .food(let category, let name):
            let existing = try tx.category(named: category)
            if likelyNew, let existing, let food = try tx.addFoodUnlessTaken(in: existing, name: name, image: image) {
                return (.food(food, created: true), pendingUndo ?? IngestUndo(created: true, categoryCreated: false))
            }
            // A category made just now holds no food yet.
            if existing != nil, let food = try tx.food(category: category, name: name) {
                try queue.lockRow(of: food.ref, in: tx)
                let undo = pendingUndo ?? IngestUndo(created: false, image: food.image)
                return (.food(try tx.setImage(foodID: food.id, image: image), created: false), undo)
            }
            let folder: FoodCategory
            if let existing { folder = existing } else { folder = try tx.addCategory(category) }
            let food = try tx.addFood(in: folder, name: name, image: image)
            let undo = pendingUndo ?? IngestUndo(created: true, categoryCreated: existing == nil)
            return (.food(food, created: true), undo)
        }
    }

    /// Puts `record` back as `undoData` says and marks the file's row `failed` with `reason`,
    /// in one transaction; then removes the files of a deleted record's outputs, or rebuilds
    /// the restored image's outputs. Returns a `failed` event if the catalog refused.
    func undo(_ record: RecordRef, _ undoData: IngestUndo, source: String, sha: String, reason: String) -> [IngestEvent]
    {
        var removed: [OutputRecord] = []
        var restored: CatalogBuilder.OwnClaim?
        do {
            try store.write { tx in
                if undoData.created {
                    removed = try tx.outputs(for: record)
                    switch record.kind {
                    case .bug:
                        try tx.deleteBug(id: record.id)
                    case .food:
                        let food = try tx.food(id: record.id)
                        try tx.deleteFood(id: record.id)
                        if undoData.categoryCreated, let food {
                            // Fails (and is rolled back alone) when other foods are in it now.
                            _ = try? tx.savepoint { try tx.deleteCategory(named: food.category) }
                        }
                    case .app:
                        break
                    }
                } else {
                    switch record.kind {
                    case .bug where try tx.bug(id: record.id) != nil:
                        var written = try tx.setImage(bugID: record.id, image: undoData.image)
                        if let rating = undoData.rating { written = try tx.rate(bugID: record.id, rating: rating) }
                        restored = try builder.claimOwn(
                            .bug(written, created: false), queue: queue, worker: worker, in: tx)
                    case .food where try tx.food(id: record.id) != nil:
                        let written = try tx.setImage(foodID: record.id, image: undoData.image)
                        restored = try builder.claimOwn(
                            .food(written, created: false), queue: queue, worker: worker, in: tx)
                    default:
                        break
                    }
                }
                try tx.recordIngest(
                    path: source, sha256: sha, record: undoData.created ? nil : record, status: .failed, reason: reason)
            }
        } catch {
            return [
                IngestEvent(
                    .failed, path: shown(absolute: source), record: record.description, reason: "cannot undo: \(error)")
            ]
        }
        var folders = Set<String>()
        for output in removed {
            unlink(outputDirectory + "/" + output.path)
            folders.insert((output.path as NSString).deletingLastPathComponent)
        }
        for folder in folders where !folder.isEmpty { rmdir(outputDirectory + "/" + folder) }  // Only if empty.
        // The record with its previous image is built under a claim taken with the restore, as
        // an ingest's is: no queue row is left for a worker to build it again.
        if let restored {
            let report = builder.build(
                claimed: restored, queue: queue, worker: worker, prepared: nil, done: { _, _ in }
            ).report
            if report.failed > 0 {
                return [
                    IngestEvent(
                        .failed, path: shown(absolute: source), record: record.description,
                        reason: "restored its previous image, but: \(report.failures.first ?? "the build failed")")
                ]
            }
        }
        return []
    }

    /// Applies the rating sidecar at `relativePath` to its bug, if the bug exists and the rating
    /// differs, and rebuilds the bug's outputs (its rating strip) under a claim taken with the
    /// change, as an ingest does (no queue row is left). A bug that does not exist yet reads the
    /// sidecar when its image arrives.
    public func applySidecar(_ relativePath: String) -> [IngestEvent] {
        guard case .sidecar(let title) = InboxLayout.classify(relativePath) else { return [] }
        let rating: Rating
        do {
            guard let read = try SidecarRating.read(at: absolute(relativePath)) else { return [] }
            rating = read
        } catch {
            return [IngestEvent(.failed, path: shown(relativePath), reason: error.reason)]
        }
        let claimed: CatalogBuilder.OwnClaim?
        do {
            claimed = try store.write(mode: .claim) { tx -> CatalogBuilder.OwnClaim? in
                guard let bug = try tx.bug(title: title), bug.rating != rating else { return nil }
                try queue.lockRow(of: bug.ref, in: tx)
                let written = try tx.rate(bugID: bug.id, rating: rating.value)
                return try builder.claimOwn(.bug(written, created: false), queue: queue, worker: worker, in: tx)
            }
        } catch {
            return [IngestEvent(.failed, path: shown(relativePath), reason: "catalog: \(error)")]
        }
        guard let claimed else { return [] }
        let changed = claimed.claim.record
        let report = builder.build(
            claimed: claimed, queue: queue, worker: worker, prepared: nil, done: { _, _ in }
        ).report
        var events = [
            IngestEvent(.rated, path: shown(relativePath), record: changed.description, reason: "rating \(rating)")
        ]
        if report.failed > 0 {
            events.append(
                IngestEvent(
                    .failed, path: shown(relativePath), record: changed.description,
                    reason: "cannot make its outputs: \(report.failures.first ?? "the build failed")"))
        }
        return events
    }

    /// Finishes or undoes the ingests an earlier watcher of this inbox left `pending` (it was
    /// killed between the record change and the `imported` mark):
    /// - the file is still in the inbox with the same bytes: left for the start-up scan, which
    ///   redoes the ingest;
    /// - `--move-done` had already moved it (the record's image is there with the same bytes):
    ///   its outputs are built and the row marked `imported`;
    /// - otherwise the file is gone: the record change is undone and the row marked `failed`.
    public func recoverPending() -> [IngestEvent] {
        let rows: [IngestedFile]
        do {
            rows = try store.read { tx in try tx.ingestedFiles(status: .pending) }
        } catch {
            return [IngestEvent(.failed, path: inbox, reason: "catalog: \(error)")]
        }
        let prefix = absoluteInbox == "/" ? "/" : absoluteInbox + "/"
        var events: [IngestEvent] = []
        for row in rows where row.path.hasPrefix(prefix) {
            let relativePath = String(row.path.dropFirst(prefix.count))
            if FileStamp.of(row.path) != nil, (try? ContentHash.sha256(ofFileAt: row.path)) == row.sha256 { continue }
            let undoData = IngestUndo(reasonText: row.reason) ?? IngestUndo(created: false)
            guard let record = row.record else {
                _ = try? store.write { tx in
                    try tx.recordIngest(
                        path: row.path, sha256: row.sha256, record: nil, status: .failed, reason: "vanished")
                }
                continue
            }
            let image = try? store.read { tx in try Self.find(record, in: tx) }
            if let image, image.sha256 == row.sha256, image.path != row.path, FileStamp.of(image.path) != nil,
                (try? ContentHash.sha256(ofFileAt: image.path)) == row.sha256
            {
                var finished = finish(
                    relativePath, record: record, undo: undoData, source: row.path, image: image.path, sha: row.sha256)
                if let last = finished.last, last.event == .ingested {
                    finished[finished.count - 1] = IngestEvent(
                        .recovered, path: shown(relativePath), record: record.description,
                        reason: "finished an ingest the previous watcher left half-done", outputs: last.outputs,
                        movedTo: PathBytes.display(image.path))
                }
                events += finished
            } else {
                let reason = "the file vanished before its ingest finished"
                events += undo(record, undoData, source: row.path, sha: row.sha256, reason: reason)
                events.append(
                    IngestEvent(
                        .recovered, path: shown(relativePath), record: record.description,
                        reason: "undid an ingest the previous watcher left half-done (\(reason))"))
            }
        }
        return events
    }

    /// Writes the `.error.txt` notes an earlier watcher of this inbox was killed before writing
    /// (the file was already in `.rejected/`), with the reason the catalog recorded for the same
    /// bytes, and removes its temporary note files.
    public func repairRejectedNotes() -> [IngestEvent] {
        let failures = (try? store.read { tx in try tx.ingestedFiles(status: .failed) }) ?? []
        let prefix = absoluteInbox == "/" ? "/" : absoluteInbox + "/"
        let repaired = rejected.repairNotes { sha256 in
            // The latest failure of these bytes in this inbox.
            guard let row = failures.last(where: { $0.sha256 == sha256 && $0.path.hasPrefix(prefix) }) else {
                return nil
            }
            return (String(row.path.dropFirst(prefix.count)), row.reason)
        }
        return repaired.map { name in
            IngestEvent(
                .recovered, path: shown(absolute: rejected.folder + "/" + name),
                reason: "wrote the note the previous watcher left unwritten")
        }
    }

    /// The image of the record `ref` names, if the record exists.
    static func find(_ ref: RecordRef, in tx: CatalogTransaction) throws(CatalogError) -> ImageRef? {
        switch ref.kind {
        case .bug: return try tx.bug(id: ref.id)?.image
        case .food: return try tx.food(id: ref.id)?.image
        case .app: return nil
        }
    }
}
