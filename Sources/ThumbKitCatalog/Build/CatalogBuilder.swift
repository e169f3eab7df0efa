import Foundation
import ThumbKit

// STUB: a minimal stand-in for the real catalog build (issue 3), with exactly its public API, so
// the watch folder can be written and tested before the real one lands. It makes each record's
// recipe outputs from its source image and removes rows no recipe wants; it does not make rating
// strips or app icons. Drop this file when merging the real CatalogBuilder.

/// Makes the files records need (recipe outputs) and records them in the catalog.
public struct CatalogBuilder: Sendable {
    /// The catalog whose records are built.
    public let store: CatalogStore
    /// The output folder; output paths are relative to it.
    public let outputDirectory: String
    /// The recipes to make.
    public let recipes: RecipeBook
    /// Records built in parallel.
    public let jobs: Int

    /// A builder for `store`, writing under `outputDirectory`.
    public init(
        store: CatalogStore, outputDirectory: String, recipes: RecipeBook = .defaults,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.store = store
        self.outputDirectory = outputDirectory
        self.recipes = recipes
        self.jobs = max(1, jobs)
    }

    /// Makes what is missing or stale for `records` (nil = every record, plus rating strips and
    /// app icons), removes outputs no recipe wants.
    public func build(
        only records: [RecordRef]? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil,
        onFailure: (@Sendable (String) -> Void)? = nil
    ) -> BuildReport {
        var report = BuildReport(made: 0, upToDate: 0, removed: 0, failed: 0, failures: [])
        let targets: [RecordRef]
        do {
            targets = try records ?? store.read { tx in try tx.bugs().map(\.ref) + tx.foods().map(\.ref) }
        } catch {
            report.fail("\(error)", onFailure)
            return report
        }
        for (index, record) in targets.enumerated() {
            do {
                try build(record, into: &report)
            } catch {
                report.fail("\(error)", onFailure)
            }
            progress?(index + 1, targets.count)
        }
        return report
    }

    private func build(_ record: RecordRef, into report: inout BuildReport) throws {
        let found: (title: String, image: ImageRef?)? = try store.read { tx in
            switch record.kind {
            case .bug: return try tx.bug(id: record.id).map { ($0.title, $0.image) }
            case .food: return try tx.food(id: record.id).map { ($0.name, $0.image) }
            case .app: return nil
            }
        }
        guard let found else { return }
        let wanted = found.image == nil ? [] : recipes.recipes(for: record.kind)
        var keep = Set<OutputKey>()
        var stale: [(Recipe, Int)] = []
        let existing = try store.outputs(for: record)
        for recipe in wanted {
            for scale in recipe.scales {
                let key = OutputKey(record: record, recipe: recipe.identifier, scale: scale)
                keep.insert(key)
                let row = existing.first { $0.values.key == key }
                let path = OutputNaming.path(for: record, title: found.title, recipe: recipe, scale: scale)
                if let row, row.sourceSHA256 == found.image?.sha256, row.path == path,
                    FileManager.default.fileExists(atPath: outputDirectory + "/" + row.path)
                {
                    report.upToDate += 1
                } else {
                    stale.append((recipe, scale))
                }
            }
        }
        if let image = found.image, !stale.isEmpty {
            let data = try FileIO.read(image.path)
            let rendered = try Thumbnailer.render(
                data, path: image.path, variants: stale.map { $0.0.resizeOptions(scale: $0.1) })
            var rows: [OutputValues] = []
            for ((recipe, scale), picture) in zip(stale, rendered.images) {
                let bytes = try ImageEncoders.encode(picture, options: recipe.encodeOptions, path: image.path)
                let path = OutputNaming.path(for: record, title: found.title, recipe: recipe, scale: scale)
                try FileIO.writeAtomically(bytes, to: outputDirectory + "/" + path)
                rows.append(
                    OutputValues(
                        record: record, recipe: recipe.identifier, kind: recipe.outputKind, scale: scale, path: path,
                        width: picture.width, height: picture.height, format: recipe.format, bytes: bytes.count,
                        sourceSHA256: image.sha256))
            }
            try store.write { tx in for row in rows { try tx.upsertOutput(row) } }
            report.made += rows.count
        }
        let removed = try store.write { tx in try tx.deleteOutputs(for: record, keeping: keep) }
        for row in removed where !existing.contains(where: { $0.path == row.path && $0.id != row.id }) {
            unlink(outputDirectory + "/" + row.path)
        }
        report.removed += removed.count
    }
}

/// What a build did.
public struct BuildReport: Sendable, Codable {
    /// Output files written.
    public var made: Int
    /// Outputs already current.
    public var upToDate: Int
    /// Outputs removed (no recipe wants them).
    public var removed: Int
    /// Records (or assets) that failed.
    public var failed: Int
    /// One `<path>: <reason>` line per failure.
    public var failures: [String]

    mutating func fail(_ line: String, _ onFailure: (@Sendable (String) -> Void)?) {
        failed += 1
        failures.append(line)
        onFailure?(line)
    }
}
