// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// Makes one unit's missing or stale outputs and records them: each source read and decoded
/// once, every file written atomically, then all the unit's row changes in one transaction.
///
/// Crash safety comes from the order: files first, rows second, old files last. A build killed
/// at any point leaves every row describing a complete file (rebuilt files have new, tagged
/// names, so a row's file is never overwritten); at worst some files have no row yet, which the
/// next build rewrites or sweeps.
struct UnitBuild {
    let unit: BuildUnit
    /// The record's rows when the build was planned.
    let rows: [OutputRecord]
    let folder: OutputFolder
    let store: CatalogStore
    let style: RatingStripStyle
    /// Limits for each source picture (read and decode).
    let limits: ImageLimits
    /// Threads for the rows of one image.
    let threads: Int
    /// Scale-out: runs first in the row-commit transaction (the build queue's fence).
    var commitGuard: BuildCommitGuard? = nil
    /// A render of a source made before the build (the watch folder's check): used instead of
    /// decoding that source again when it has the hash and the variants the build needs.
    var prepared: PreparedImage? = nil
    /// The build's scheduler and this unit's index in it: a memory-heavy decode waits for, or
    /// puts the unit back until, the one heavy slot (nil: the unit runs alone).
    var scheduler: (BatchScheduler, index: Int)? = nil

    /// A made output, waiting for its row.
    struct Made: Sendable {
        let output: PlannedOutput
        /// The encoded file (nil for an attached file made elsewhere).
        let bytes: [UInt8]?
        let width: Int
        let height: Int
    }

    /// Does the work; failures are in the report, never thrown. Nil when the unit was put back
    /// before doing anything, because its decode is memory-heavy and another one is in flight
    /// (see `scheduler`): the scheduler hands it out again.
    func run() -> BuildReport? {
        var report = BuildReport()
        var made: [Made] = []
        var hashUpdate: ImageRef?
        var iconContents: Data?
        let byKey = Dictionary(rows.map { ($0.values.key, $0) }, uniquingKeysWith: { first, _ in first })
        for group in unit.groups {
            do {
                let outputs: [PlannedOutput]
                switch group.source {
                case .unavailable:
                    continue
                case .none:
                    outputs = group.plan("")
                    let todo = outputs.filter { !$0.isCurrent(byKey[$0.key], in: folder) }
                    made += todo.map { Made(output: $0, bytes: nil, width: $0.width ?? 1, height: $0.height ?? 1) }
                case .ratingIcons(let icons):
                    outputs = group.plan(icons.sha256)
                    let todo = outputs.filter { !$0.isCurrent(byKey[$0.key], in: folder) }
                    if !todo.isEmpty { made += try strips(todo, icons: icons) }
                case .image(let path, let recorded):
                    let bytes = try FileIO.read(path, maxBytes: limits.maxFileBytes)
                    let sha = ContentHash.sha256(of: bytes)
                    if sha != recorded, let image = unit.image, image.path == path {
                        hashUpdate = ImageRef(path: path, sha256: sha)
                    }
                    outputs = group.plan(sha)
                    let todo = outputs.filter { !$0.isCurrent(byKey[$0.key], in: folder) }
                    if !todo.isEmpty {
                        guard
                            let images = try resized(
                                todo, from: bytes, path: path, sha256: sha, mayPutBack: made.isEmpty)
                        else { return nil }
                        made += images
                    }
                }
                report.upToDate +=
                    outputs.count - outputs.filter { output in made.contains { $0.output.key == output.key } }.count
                if unit.writesIconContents, let contents = BuildUnit.iconContents(outputs) {
                    iconContents = contents
                }
            } catch {
                report.fail(Self.line(error))
            }
        }
        do {
            report.add(
                try commit(made, hashUpdate: hashUpdate, iconContents: iconContents, failures: report.failures))
        } catch {
            report.fail(Self.line(error))
        }
        return report
    }

    // MARK: Making files

    /// Decodes `bytes` once (or takes the prepared render of them) and makes every output in
    /// `todo` from it; nil when the decode is memory-heavy and the unit was put back (only when
    /// `mayPutBack`: nothing made yet).
    private func resized(
        _ todo: [PlannedOutput], from bytes: [UInt8], path: String, sha256: String, mayPutBack: Bool
    ) throws -> [Made]? {
        let variants = todo.map { output -> ThumbnailPipeline.Variant in
            guard case .resize(let options, let encoding, let opaque) = output.maker else {
                preconditionFailure("An image group plans only resized outputs.")
            }
            return ThumbnailPipeline.Variant(resize: options, encoding: encoding, flatten: opaque)
        }
        let pipeline = ThumbnailPipeline(variants: variants, decode: DecodeOptions(limits: limits))
        let images: [PixelBuffer]
        if let ready = prepared?.images(for: variants.map(\.resize), sha256: sha256) {
            images = ready
        } else {
            let source = try ImageSource(bytes, path: path)
            var holder: BatchScheduler?  // set while this decode holds the heavy slot
            if let (scheduler, index) = scheduler, pipeline.isHeavy(source) {
                guard scheduler.claimHeavy(index, mayPutBack: mayPutBack) else { return nil }
                holder = scheduler
            }
            defer { holder?.releaseHeavy() }
            // The deadline starts here, after any wait for the heavy slot.
            images = try pipeline.render(
                source, threads: threads, spareSlot: holder == nil ? scheduler?.0.slot : nil
            ).images
        }
        let targets = todo.map { folder.absolute($0.path) }
        let encoded = try pipeline.encode(images, path: path, profile: nil, outputPaths: targets)
        return try zip(todo, encoded).map { output, made in
            try write(output, made.bytes, width: made.width, height: made.height)
        }
    }

    /// Draws the strips in `todo` from the rating icons.
    private func strips(_ todo: [PlannedOutput], icons: RatingIconSources) throws -> [Made] {
        let decoded = try icons.decode()
        var sized: [Int: [RatingStrip.IconState: PixelBuffer]] = [:]
        return try todo.map { output in
            guard case .strip(let rating) = output.maker else {
                preconditionFailure("A strip group plans only strips.")
            }
            let scale = output.key.scale
            if sized[scale] == nil { sized[scale] = RatingStrip.iconSet(decoded, side: style.iconPixels(scale: scale)) }
            let image = RatingStrip.render(rating, sized: sized[scale]!, style: style, scale: scale)
            return try write(output, image, EncodeOptions(format: .png))
        }
    }

    /// Encodes `image` and writes it under the output's path (temporary name, then rename).
    private func write(_ output: PlannedOutput, _ image: PixelBuffer, _ encoding: EncodeOptions) throws -> Made {
        let bytes = try ImageEncoders.encode(image, options: encoding, path: folder.absolute(output.path))
        return try write(output, bytes, width: image.width, height: image.height)
    }

    /// Writes encoded `bytes` under the output's path (temporary name, then rename), once the
    /// folder says the file there may be replaced.
    private func write(_ output: PlannedOutput, _ bytes: [UInt8], width: Int, height: Int) throws -> Made {
        try folder.requireReplaceable(output.path)
        try FileIO.writeAtomically(bytes, to: folder.absolute(output.path))
        return Made(output: output, bytes: bytes, width: width, height: height)
    }

    /// Writes `Contents.json` when it is missing or different (so a build with nothing to do
    /// writes nothing). Only inside the commit transaction, after the fence held: its name
    /// carries no content tag, so a worker whose claim was lost must never write it (it would
    /// name the icons of a logo the catalog no longer has, over the new owner's file).
    func writeIconContents(_ contents: Data) throws {
        if BuildUnit.hasIconContents(contents, in: folder) { return }
        try folder.requireReplaceable(AppIcon.contentsPath)
        try FileIO.writeAtomically([UInt8](contents), to: folder.absolute(AppIcon.contentsPath))
    }

    // MARK: Recording

    /// Records `made` in one transaction, removes rows no recipe wants, writes the untagged
    /// `iconContents` (after the fence, under its lock), then removes the files no row
    /// describes any more. A fenced bug or food whose guard collects commits (`CommitBatch`)
    /// is handed to it instead, and recorded with the batch's other records in one transaction.
    private func commit(_ made: [Made], hashUpdate: ImageRef?, iconContents: Data?, failures: [String]) throws
        -> BuildReport
    {
        guard !made.isEmpty || hashUpdate != nil || iconContents != nil || unit.removesUnwanted else {
            return BuildReport()
        }
        let pending = PendingCommit(
            build: self, made: made, hashUpdate: hashUpdate, iconContents: iconContents, failures: failures)
        if let batch = commitGuard?.batch, unit.record.kind != .app, batch.holds(unit.record) {
            batch.add(pending)
            return BuildReport()
        }
        return try pending.commitAlone()
    }

    /// Removes the files of `made` that no row describes, inside `tx` (so under the write lock,
    /// as the sweep removes files): this build wrote them, and its commit was refused or
    /// skipped. Left alone they would wait for the next full build's sweep, and those of a
    /// record retitled meanwhile sit in its old folder beside the new one. A concurrent build
    /// that wrote a file of the same (content-tagged) name and has not committed yet writes it
    /// again in its commit when it finds it gone; a file of another size is not this build's.
    func removeUnrecorded(_ made: [Made], in tx: CatalogTransaction) throws {
        for item in made {
            guard let bytes = item.bytes, folder.fileSize(item.output.path) == bytes.count,
                try !tx.isOutputPathReferenced(item.output.path)
            else { continue }
            folder.remove(item.output.path)
        }
    }

    /// `<path>: <reason>` for any error the build meets.
    static func line(_ error: any Error) -> String {
        String(describing: error)
    }
}
