// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The catalog the `icons` job builds: the demo catalog (what `thumbkit demo` draws), imported
/// into a private database once per session, before anything is timed.
///
/// The catalog remembers what it built (one row per output), so a second build from the same
/// database into an empty folder would still find part of its work recorded. Every run therefore
/// starts from an untouched copy of the prepared database in its own fresh run folder
/// (`RUN/catalog.sqlite`, copied by ``copyDatabase(into:)`` before the clock starts) and builds
/// into the empty `RUN/build`: every run is a full build, which ``verify(log:)`` checks from
/// the build's `--json` summary (nothing up to date, nothing removed, something made).
///
/// The pictures are drawn here rather than read from the corpus, so the job needs no corpus
/// and its input is the same on every machine.
///
/// Figures: the job's images are the image files one build writes (thumbnails and detail
/// images at every scale, rating strips, app icons; not `Contents.json`, nor the rows that point
/// a bug at its shared strip). Its input megapixels are the stored megapixels of every source
/// picture, counted once per decode: a build decodes each record's picture once for all its
/// recipes and scales, the logo once for all the icons, and each rating icon once for all strips.
package struct BenchDemoCatalog: Sendable, Hashable {
    /// The prepared database: the demo's records imported, no outputs.
    package let database: String
    /// Source pictures one full build decodes.
    package let sources: Int
    /// Their stored megapixels (width × height / 10⁶), summed.
    package let megapixels: Double
    /// ``BenchCorpus/identity(of:)`` of the source pictures (empty when not measured).
    package let identity: String

    /// The database's name inside a run folder.
    package static let databaseName = "catalog.sqlite"
    /// The build's output folder inside a run folder.
    package static let outputFolderName = "build"

    package init(database: String, sources: Int, megapixels: Double, identity: String = "") {
        self.identity = identity
        self.database = database
        self.sources = sources
        self.megapixels = megapixels
    }

    /// Draws the demo catalog into `folder/demo`, imports it into `folder/catalog.sqlite` (a new
    /// database) and measures its source pictures.
    ///
    /// - Throws: ``BenchError/demoCatalog(path:reason:)`` when a picture cannot be written, the
    ///   import reports a problem, or the database cannot be made.
    package static func prepare(in folder: String) throws(BenchError) -> BenchDemoCatalog {
        let database = (folder as NSString).appendingPathComponent(databaseName)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            let importFile = try DemoCatalog.write(into: (folder as NSString).appendingPathComponent("demo"))
            let paths = try importRecords(from: importFile, into: database)
            var megapixels = 0.0
            var files: [BenchCorpus.File] = []
            for path in paths {
                let bytes = try FileIO.read(path)
                let header = try ImageDecoders.readHeader(bytes, path: path)
                megapixels += Double(header.width * header.height) / 1e6
                files.append(
                    BenchCorpus.File(
                        path: path, header: header, byteCount: bytes.count, contentHash: ContentHash.sha256(of: bytes)))
            }
            return BenchDemoCatalog(
                database: database, sources: paths.count, megapixels: megapixels,
                identity: BenchCorpus.identity(of: files))
        } catch let error as BenchError {
            throw error
        } catch let error as DecodeError {
            throw .demoCatalog(path: error.path, reason: error.reason)
        } catch {
            throw .demoCatalog(path: database, reason: String(describing: error))
        }
    }

    /// Imports `importFile` into a new database at `path` and returns the source pictures a full
    /// build decodes. The store is closed on return (SQLite folds its WAL back into the file), so
    /// the file alone is the whole catalog.
    private static func importRecords(from importFile: String, into path: String) throws -> [String] {
        let store = try CatalogStore(path: path)
        let report = try CatalogImporter(store: store).importFile(at: importFile, atomic: true)
        if let problem = report.problems.first {
            throw BenchError.demoCatalog(path: importFile, reason: "the demo does not import: \(problem)")
        }
        let (bugs, foods, assets, outputs) = try store.read { tx in
            (try tx.bugs(), try tx.foods(), try tx.assets(), try tx.outputs())
        }
        guard !bugs.isEmpty, outputs.isEmpty else {
            throw BenchError.demoCatalog(path: path, reason: "the prepared catalog is not the bare demo")
        }
        return bugs.compactMap(\.image?.path) + foods.compactMap(\.image?.path)
            + [assets.logo, assets.ratingEmpty, assets.ratingHalf, assets.ratingFull].compactMap { $0 }
    }

    /// Copies the prepared database into the run folder `runFolder` (untimed, before each run).
    ///
    /// - Throws: ``BenchError/demoCatalog(path:reason:)`` when the copy fails.
    package func copyDatabase(into runFolder: String) throws(BenchError) {
        let target = (runFolder as NSString).appendingPathComponent(Self.databaseName)
        do {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
            try FileManager.default.copyItem(atPath: database, toPath: target)
            // Normally gone once the preparing store closed; copied with the file if it is not.
            if FileManager.default.fileExists(atPath: database + "-wal") {
                try FileManager.default.copyItem(atPath: database + "-wal", toPath: target + "-wal")
            }
        } catch {
            throw .demoCatalog(path: target, reason: "cannot copy the prepared catalog: \(error.localizedDescription)")
        }
    }

    /// The problems with one run, read from its log (the build's `--json` summary): a run must
    /// have made outputs, found none up to date and removed none. Empty when it was a full build.
    package static func verify(log: String) -> [String] {
        guard let start = log.firstIndex(of: "{"), let end = log.lastIndex(of: "}"),
            let report = try? JSONDecoder().decode(BuildReport.self, from: Data(log[start...end].utf8))
        else {
            return ["the build's summary is missing from its output"]
        }
        var problems: [String] = []
        if report.made == 0 { problems.append("the build made nothing") }
        if report.upToDate != 0 || report.removed != 0 {
            problems.append("not a full build: \(report.summary)")
        }
        return problems
    }

    /// The image files a run wrote (PNG and JPEG anywhere below `RUN/build`).
    package static func images(inRun runFolder: String) -> Int {
        let root = (runFolder as NSString).appendingPathComponent(outputFolderName)
        guard let names = FileManager.default.enumerator(atPath: root) else { return 0 }
        var count = 0
        for case let name as String in names where ["png", "jpg", "jpeg"].contains((name as NSString).pathExtension) {
            count += 1
        }
        return count
    }
}
