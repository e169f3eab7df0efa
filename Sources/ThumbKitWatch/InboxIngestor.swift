// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// Turns one settled inbox file into a record with its outputs, once, and so that a crash at
/// any point is finished or undone by the next run. The order of one ingest:
///
/// 1. read the file (refusing it over the size limit) and hash the bytes read (SHA-256);
/// 2. ask the catalog: the same (path, hash) already `imported` or `skipped` → skip (silently
///    when the file has not been written since, as after a restart's scan); the record already
///    has an image with this hash → skip, remembering the file as a duplicate;
/// 3. check: header, limits, and a decode with codec warnings fatal that also renders the
///    outputs step 6 writes (``CatalogBuilder/prepare(_:sha256:for:)``); a failure rejects the
///    file before the catalog is touched;
/// 4. one transaction: create or update the record (image, sidecar rating, new category),
///    claim its build queue row for this ingestor (``BuildQueue/claimOwn(_:worker:lease:now:in:)``:
///    no `thumbkit worker` builds it meanwhile) and write the file's row as `pending`, with
///    what is needed to undo the change;
/// 5. with `--move-done`, move the source to where the record now says it is;
/// 6. build the record's outputs from step 3's render, under that claim;
/// 7. in the transaction that commits them, fenced as a worker's commit is (a claim lost
///    meanwhile records nothing), remove the queue row and mark the file's row `imported`.
///
/// A crash before 4 leaves nothing; between 4 and 7 it leaves a `pending` row (and a queue row
/// held until its lease runs out, when a worker may build it), which the next
/// run redoes (the file is still in the inbox: steps 4–7 are idempotent) or, from
/// ``recoverPending()``, finishes (the file was already moved by 5) or undoes (the file is gone).
/// A build failure undoes step 4, removes any outputs made, and rejects the file.
public struct InboxIngestor: Sendable {
    /// The inbox as given (event paths start with it).
    public let inbox: String
    /// The inbox as an absolute path (the catalog's keys and image paths start with it).
    public let absoluteInbox: String
    /// The catalog.
    public let store: CatalogStore
    /// Makes the outputs of one record at a time.
    public let builder: CatalogBuilder
    /// The output folder.
    public let outputDirectory: String
    /// Size and pixel limits; files over them are rejected.
    public let limits: ImageLimits
    /// Where processed sources go (`--move-done`), keeping their inbox-relative path; nil leaves
    /// them in place.
    public let moveDoneTo: String?
    /// Told when each file reaches a phase (``WatchCrashPoints``); nothing by default.
    package var crashPoints: any WatchCrashPoints = NoWatchCrashPoints()
    let rejected: RejectedFolder
    /// The build queue, whose rows of the records it changes the ingestor claims.
    let queue: BuildQueue
    /// The ingestor's worker id in the queue (`host:pid:random`, as a worker's).
    let worker = BuildWorker.newID()

    /// An ingestor for the inbox at `inbox`.
    public init(
        inbox: String, store: CatalogStore, outputDirectory: String, recipes: RecipeBook = .defaults,
        limits: ImageLimits = ImageLimits(), moveDoneTo: String? = nil
    ) {
        let trimmed = inbox.count > 1 && inbox.hasSuffix("/") ? String(inbox.dropLast()) : inbox
        self.inbox = trimmed
        self.absoluteInbox = PathResolution.resolve(trimmed, against: FileManager.default.currentDirectoryPath)
        self.store = store
        self.outputDirectory = outputDirectory
        self.builder = CatalogBuilder(
            store: store, outputDirectory: outputDirectory, recipes: recipes, jobs: 1, limits: limits)
        self.limits = limits
        self.moveDoneTo = moveDoneTo.map {
            PathResolution.resolve($0, against: FileManager.default.currentDirectoryPath)
        }
        self.rejected = RejectedFolder(inbox: absoluteInbox)
        self.queue = BuildQueue(store: store)
    }

    /// `<inbox as given>/<relativePath>`, for event lines.
    func shown(_ relativePath: String) -> String {
        PathBytes.display(inbox == "/" ? "/" + relativePath : inbox + "/" + relativePath)
    }

    /// An absolute path inside the inbox as ``shown(_:)`` shows it; other paths unchanged.
    func shown(absolute path: String) -> String {
        let prefix = absoluteInbox == "/" ? "/" : absoluteInbox + "/"
        return path.hasPrefix(prefix) ? shown(String(path.dropFirst(prefix.count))) : PathBytes.display(path)
    }

    /// The absolute path of an inbox file.
    func absolute(_ relativePath: String) -> String { absoluteInbox + "/" + relativePath }

    /// Processes the settled file at `relativePath`: an image (``ingest(_:)``) or a rating
    /// sidecar (``applySidecar(_:)``); anything else yields no event.
    public func process(_ relativePath: String) -> [IngestEvent] {
        switch InboxLayout.classify(relativePath) {
        case .image: return ingest(relativePath)
        case .sidecar: return applySidecar(relativePath)
        case .temporary, .hidden, .ignored: return []
        }
    }

    /// Ingests the image at `relativePath` (see the type's steps). Returns its events: one of
    /// `ingested`, `skipped`, `rejected` or `failed`, sometimes after a notice about its sidecar;
    /// none when the file vanished before it could be read.
    public func ingest(_ relativePath: String) -> [IngestEvent] {
        guard case .image(let target) = InboxLayout.classify(relativePath) else { return [] }
        let source = absolute(relativePath)

        // 1. Read and hash.
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(source, maxBytes: limits.maxFileBytes)
        } catch {
            if case .unreadable = error, FileStamp.of(source) == nil { return [] }  // Gone meanwhile.
            let sha = (try? ContentHash.sha256(ofFileAt: source)) ?? ""
            return reject(relativePath, at: source, sha: sha, record: nil, reason: error.reason)
        }
        let sha = ContentHash.sha256(of: bytes)

        // 2. What the catalog already knows: two look-ups, each its own statement (step 4
        // checks the record again in its transaction).
        let known: (row: IngestedFile?, record: (ref: RecordRef, image: ImageRef?)?)
        do {
            known = try store.readEach { tx in
                (try tx.ingestedFile(path: source, sha256: sha), try Self.find(target, in: tx))
            }
        } catch {
            return [IngestEvent(.failed, path: shown(relativePath), reason: "catalog: \(error)")]
        }
        var pendingUndo: IngestUndo?
        switch known.row?.status {
        case .imported?, .skipped?:
            if let row = known.row, let stamp = FileStamp.of(source),
                Double(stamp.changed) / 1e9 < row.processedAt.timeIntervalSince1970
            {
                return []  // Untouched since it was handled (a scan after a restart): nothing to say.
            }
            let what = known.row?.record.map { " as \($0)" } ?? ""
            return [
                IngestEvent(
                    .skipped, path: shown(relativePath), record: known.row?.record?.description,
                    reason: "already ingested\(what)")
            ]
        case .pending?:
            pendingUndo = known.row.flatMap { IngestUndo(reasonText: $0.reason) }
        case .failed?, nil:
            if let record = known.record, record.image?.sha256 == sha {
                let reason = "same bytes as \(record.ref)'s image"
                _ = try? store.write { tx in
                    try tx.recordIngest(path: source, sha256: sha, record: record.ref, status: .skipped, reason: reason)
                }
                return [
                    IngestEvent(.skipped, path: shown(relativePath), record: record.ref.description, reason: reason)
                ]
            }
        }

        // 3. Check before the catalog is touched, as import and set-image do, by rendering the
        // outputs step 6 writes (one decode for both; a progressive JPEG is checked and built
        // with a decode each, see `PreparedImage`).
        let prepared: PreparedImage?
        do {
            prepared = try builder.prepare(ImageSource(bytes, path: source), sha256: sha, for: target.recordKind)
        } catch {
            return reject(relativePath, at: source, sha: sha, record: nil, reason: error.reason)
        }

        var events: [IngestEvent] = []
        var rating: Rating?
        if case .bug = target {
            // Next to the image, by its file name's bytes (the title is their escaped form).
            let sidecar = InboxLayout.splitExtension(relativePath).stem + ".json"
            do {
                rating = try SidecarRating.read(at: absolute(sidecar))
            } catch {
                events.append(
                    IngestEvent(.ignored, path: shown(sidecar), reason: "\(error.reason); the rating is left as it is"))
            }
        }

        // 4. Record change, its claim and the pending row, in one transaction.
        var imagePath = source
        if let moveDoneTo {
            guard let path = donePath(for: relativePath, in: moveDoneTo, sha: sha) else {
                let reason = "cannot move to \(moveDoneTo): every name tried was taken; the file stays in the inbox"
                return events + [IngestEvent(.failed, path: shown(relativePath), reason: reason)]
            }
            imagePath = path
        }
        let change: (record: RecordRef, undo: IngestUndo, claim: CatalogBuilder.OwnClaim)
        do {
            // A claim (`WriteLockMode.claim`): beside fenced commits, never beside planning.
            change = try store.write(mode: .claim) { tx in
                let change = try Self.apply(
                    target, image: ImageRef(path: imagePath, sha256: sha), rating: rating, pendingUndo: pendingUndo,
                    likelyNew: known.record == nil, queue: queue, in: tx)
                let claim = try builder.claimOwn(change.record, queue: queue, worker: worker, in: tx)
                try tx.recordIngest(
                    path: source, sha256: sha, record: change.record.ref, status: .pending,
                    reason: change.undo.reasonText)
                return (change.record.ref, change.undo, claim)
            }
        } catch let error as CatalogError {
            if case .invalidRecord = error {
                return events + reject(relativePath, at: source, sha: sha, record: nil, reason: error.reason)
            }
            return events + [IngestEvent(.failed, path: shown(relativePath), reason: "catalog: \(error)")]
        } catch {
            return events + [IngestEvent(.failed, path: shown(relativePath), reason: "catalog: \(error)")]
        }
        crashPoints.reached(.committed)

        // 5. Move the source where the record says it is.
        if imagePath != source {
            // Nothing at `imagePath` is replaced, not even what appeared there since it was
            // chosen: the move then fails, the record change is undone and the file stays put.
            let failure: String?
            do {
                failure =
                    try FileMover.moveNew(source, to: imagePath)
                    ? nil : "cannot move to \(imagePath): the name was taken meanwhile; the file stays in the inbox"
            } catch {
                failure = error.description
            }
            if let failure {
                let undone = undo(change.record, change.undo, source: source, sha: sha, reason: failure)
                return events + [IngestEvent(.failed, path: shown(relativePath), reason: failure)] + undone
            }
            crashPoints.reached(.moved)
        }

        // 6 and 7. Outputs, then done.
        return events
            + finish(
                relativePath, record: change.record, claim: change.claim, undo: change.undo, source: source,
                image: imagePath, sha: sha, prepared: prepared)
    }

    /// Builds the record's outputs (from `prepared`, the check's render, when given) under
    /// `claim` (claimed now when nil, as when recovering) and, in the transaction that commits
    /// them, marks the row `imported`; on a build failure, undoes the record change and rejects
    /// the file (now at `image`).
    func finish(
        _ relativePath: String, record: RecordRef, claim: CatalogBuilder.OwnClaim? = nil, undo undoData: IngestUndo,
        source: String, image: String, sha: String, prepared: PreparedImage? = nil
    ) -> [IngestEvent] {
        let held: CatalogBuilder.OwnClaim
        do {
            held =
                try claim
                ?? store.write(mode: .claim) { tx in
                    try builder.claimOwn(record, queue: queue, worker: worker, in: tx)
                }
        } catch {
            return [
                IngestEvent(.failed, path: shown(relativePath), record: record.description, reason: "catalog: \(error)")
            ]
        }
        // The crash point `built` is reached with the files made and the row still `pending`:
        // inside the commit's transaction, before the mark (or after a failed build).
        let (crashPoints, marked) = (self.crashPoints, Locked<(built: Bool, outputs: Int?)>((false, nil)))
        let markImported: @Sendable (CatalogTransaction, Int?) throws -> Void = { tx, rows in
            marked.withLock { $0.built = true }
            crashPoints.reached(.built)
            try tx.recordIngest(path: source, sha256: sha, record: record, status: .imported)
            // The commit's count when it wrote rows; counted when there was nothing to commit.
            let outputs = try rows ?? tx.outputs(for: record).count
            marked.withLock { $0.outputs = outputs }
        }
        let report = builder.build(
            claimed: held, queue: queue, worker: worker, prepared: prepared, done: markImported
        ).report
        let (built, counted) = marked.withLock { ($0.built, $0.outputs) }
        if !built { crashPoints.reached(.built) }
        if report.failed > 0 {
            let reason = "cannot make its outputs: " + (report.failures.first ?? "the build failed")
            let undone = undo(record, undoData, source: source, sha: sha, reason: reason)
            return reject(relativePath, at: image, sha: sha, record: record, reason: reason, recorded: true) + undone
        }
        let outputs = counted ?? 0
        return [
            IngestEvent(
                .ingested, path: shown(relativePath), record: record.description, outputs: outputs,
                movedTo: image == source ? nil : PathBytes.display(image))
        ]
    }

    /// Moves the file at `path` (the inbox file, or its `--move-done` copy) to `.rejected/`,
    /// recording the failure in the catalog first (unless `recorded`).
    func reject(
        _ relativePath: String, at path: String, sha: String, record: RecordRef?, reason: String, recorded: Bool = false
    ) -> [IngestEvent] {
        let source = absolute(relativePath)
        if !recorded {
            _ = try? store.write { tx in
                try tx.recordIngest(path: source, sha256: sha, record: record, status: .failed, reason: reason)
            }
        }
        do {
            let target = try rejected.reject(
                path, name: (relativePath as NSString).lastPathComponent, reason: reason, origin: relativePath,
                sha256: sha)
            return [
                IngestEvent(
                    .rejected, path: shown(relativePath), record: record?.description, reason: reason,
                    movedTo: shown(absolute: target))
            ]
        } catch {
            return [
                IngestEvent(
                    .failed, path: shown(relativePath), record: record?.description,
                    reason: "\(reason); it could not be moved to \(InboxLayout.rejectedFolder): \(error.reason)")
            ]
        }
    }

    /// Where `--move-done` puts the file: `<done>/<relative path>` when nothing (no file, folder
    /// or link) has that name and it is short enough to be copied atomically; otherwise the first
    /// free one of `<stem>.<first 12 hex of sha>.<ext>`, `<stem>.<sha12>-2.<ext>`, … in the same
    /// folder (a stem too long for that is shortened, ``DerivedName``). A taken name is never
    /// chosen, not even one holding the same bytes: the move would replace a file ThumbKit cannot
    /// prove it wrote. Nil when 100 names are taken.
    func donePath(for relativePath: String, in done: String, sha: String) -> String? {
        let plain = done + "/" + relativePath
        let fileName = (relativePath as NSString).lastPathComponent
        // A move across file systems is a copy written atomically, whose temporary name is longer.
        if fileName.utf8.count <= DerivedName.maxAtomicBytes, !FileMover.isTaken(plain) { return plain }
        let folder = (relativePath as NSString).deletingLastPathComponent
        let (stem, ext) = InboxLayout.splitExtension(fileName)
        for number in 1...100 {
            let suffix = "." + sha.prefix(12) + (number == 1 ? "" : "-\(number)")
            let name = DerivedName.fit(stem: stem, suffix: suffix, ext: ext, limit: DerivedName.maxAtomicBytes)
            let candidate = done + "/" + (folder.isEmpty ? name : folder + "/" + name)
            if !FileMover.isTaken(candidate) { return candidate }
        }
        return nil
    }
}
