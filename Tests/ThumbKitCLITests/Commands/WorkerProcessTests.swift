// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Several real `thumbkit build` and `thumbkit worker` processes sharing one catalog through its
/// build queue, killed and stopped along the way; every end state is compared with one
/// undisturbed `thumbkit build` of an identical catalog, on either backend.
struct WorkerProcessTests {
    /// A workspace with two identical catalogs on `backend` (`c.sqlite`, and `ref.sqlite` for
    /// the single build to compare with; on PostgreSQL, a schema each): `bugs` bugs with
    /// pictures of their own, rating icons, and one small recipe stored in both, so the builds
    /// stay quick.
    final class Scene {
        let workspace: CLIWorkspace
        /// Where the catalogs are: their files, or their PostgreSQL schemas (dropped with it).
        let scratch: TestWorkspace
        let backend: CatalogBackend
        let bugs: Int

        init(bugs: Int, side: Int = 40, backend: CatalogBackend) throws {
            workspace = try CLIWorkspace()
            scratch = try TestWorkspace()
            self.backend = backend
            self.bugs = bugs
            let recipes = try workspace.write(
                "recipes.json",
                #"{"replaceDefaults": true, "recipes": [{"name": "bug-list", "record": "bug", "kind": "list", "size": "24x24", "scales": [1, 2]}]}"#
            )
            let empty = try workspace.image("icons/empty.png", side: 16, seed: 1)
            let full = try workspace.image("icons/full.png", side: 16, seed: 2)
            var pictures: [ImageRef] = []
            for index in 0..<bugs {
                pictures.append(
                    try ImageRef.load(path: try workspace.image("img/\(index).png", side: side, seed: index)))
            }
            for name in ["c.sqlite", "ref.sqlite"] {
                let store = try scratch.store(name, backend: backend)
                try store.write { tx in
                    for (index, picture) in pictures.enumerated() {
                        try tx.addBug(title: "Bug \(index)", rating: Rating.all[index % 11], image: picture)
                    }
                    try tx.setAssets(CatalogAssets(ratingEmpty: empty, ratingFull: full))
                }
                _ = try store.useRecipeFile(at: recipes)
            }
        }

        func path(_ relative: String) -> String { workspace.path(relative) }

        /// The `--catalog` value of catalog `name`: a file, or a URL whose search_path is its schema.
        func catalog(_ name: String) throws -> String { try backend.catalog(name, in: scratch) }

        /// Catalog `name`, opened in this process.
        func store(_ name: String) throws -> CatalogStore { try scratch.store(name, backend: backend) }

        /// `thumbkit build` of catalog `name` into `out`, as JSON.
        func buildArguments(_ name: String = "c.sqlite", out: String = "out") throws -> [String] {
            try ["build", "--catalog", catalog(name), "--out", path(out), "--json", "-j", "1"]
        }

        /// The undisturbed single build of `ref.sqlite`.
        func referenceBuild() throws -> BuildReport {
            let run = try TestBinary.run(
                try buildArguments("ref.sqlite", out: "ref-out"), in: URL(fileURLWithPath: path("")))
            #expect(run.status == 0, "\(run.stderr)")
            return try JSONDecoder().decode(BuildReport.self, from: Data(run.stdout.utf8))
        }

        /// `thumbkit catalog export` of catalog `name` (run in the workspace: same relative paths).
        func export(_ name: String) throws -> String {
            let run = try TestBinary.run(
                try ["catalog", "export", "--catalog", catalog(name)], in: URL(fileURLWithPath: path("")))
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }

        /// Every output row, as text (the app's strips are in no export).
        func rows(_ name: String) throws -> Set<String> {
            let store = try self.store(name)
            return Set(try store.read { try $0.outputs() }.map { "\($0.record) \($0.path) \($0.bytes)" })
        }

        /// What must hold after any sequence of builds and workers ends: the same catalog and
        /// rows as the single build, every row's file complete, nothing left in the queue.
        func expectSameAsReference() throws {
            #expect(try export("c.sqlite") == export("ref.sqlite"))
            #expect(try rows("c.sqlite") == rows("ref.sqlite"))
            let store = try self.store("c.sqlite")
            #expect(try BuildQueue(store: store).entries() == [])
            #expect(try consistencyProblems(store: store, outputDirectory: path("out")) == [])
            #expect(BuildKillTests.builtFiles(path("out")) == Set(try store.read { try $0.outputs() }.map(\.path)))
        }
    }

    /// `planned` of a `build --json` summary.
    static func planned(_ stdout: String) throws -> Bool {
        struct Planned: Decodable { let planned: Bool }
        return try JSONDecoder().decode(Planned.self, from: Data(stdout.utf8)).planned
    }

    /// The JSON lines of a worker's stderr with `event` (`built`, `started`…).
    static func lines(_ process: WatchProcess, _ event: String) -> [[String: String]] {
        process.stderr.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            let strings = object.compactMapValues { $0 as? String }
            return strings["event"] == event ? strings : nil
        }
    }

    @Test(.tags(.realProcess), arguments: CatalogBackend.all)
    func threeBuildsShareTheWorkAndAddUpToOneBuild(backend: CatalogBackend) throws {
        // Pictures big enough that the whole build outlasts the start of the last process (with
        // 40-pixel ones the first process once built all but ten records before the third had
        // started, and the third made nothing).
        let scene = try Scene(bugs: 72, side: 500, backend: backend)
        let reference = try scene.referenceBuild()
        #expect(reference.failed == 0 && reference.made == 33 + 72 * (2 + 3))

        // Three builds at once on one catalog and output folder, small batches, short leases.
        let arguments = try scene.buildArguments() + ["--batch", "2", "--lease", "2"]
        // All three started before any is waited for (a dispatch pool of two cores would run
        // the third only after another had finished).
        let processes = try (0..<3).map { _ in try WatchProcess(arguments, in: scene.path("")) }
        var made: [Int] = []
        var planners = 0
        for process in processes {
            #expect(process.exitStatus(timeout: 60) == 0, "\(process.stderr)")
            let report = try JSONDecoder().decode(BuildReport.self, from: Data(process.stdout.utf8))
            #expect(report.failed == 0)
            made.append(report.made)
            planners += try Self.planned(process.stdout) ? 1 : 0
        }
        // At least the first to come planned; the others may have used its pass (`planned`
        // false), which one depends on when each process started.
        #expect(planners >= 1)
        // Each did a share, and together exactly what the single build made: the shared strips
        // once, every bug once.
        #expect(made.allSatisfy { $0 > 0 }, "\(made)")
        #expect(made.reduce(0, +) == reference.made, "\(made)")
        try scene.expectSameAsReference()
    }

    @Test(.tags(.realProcess, .kill), arguments: CatalogBackend.all)
    func aStoppedWorkerExitsZeroAndAKilledOnesRecordsAreTakenOver(backend: CatalogBackend) throws {
        // Pictures big enough that a record takes a while to build, so both workers are caught
        // with work left (tiny ones let the first worker finish all 60 before its SIGTERM).
        let scene = try Scene(bugs: 60, side: 700, backend: backend)
        _ = try scene.referenceBuild()
        let arguments = try [
            "worker", "--catalog", scene.catalog("c.sqlite"), "--out", scene.path("out"), "--json", "-j", "1",
            "--batch", "2", "--lease", "1", "--poll", "0.2",
        ]

        // SIGTERM: the worker finishes the records in hand and exits 0 with its summary.
        // Stopped at its first record, so that work is left for the others (one-record builds
        // are fast: waiting for more let it finish all 60 on a quiet machine).
        let stopped = try WatchProcess(arguments, in: scene.path(""))
        #expect(stopped.wait(timeout: 30) { Self.lines($0, "built").count >= 1 })
        stopped.send(SIGTERM)
        #expect(stopped.exitStatus() == 0)
        let summary = try JSONDecoder().decode(BuildReport.self, from: Data(stopped.stdout.utf8))
        #expect(summary.made > 0 && summary.failed == 0)
        let stoppedID = try #require(Self.lines(stopped, "started").first?["worker"])
        let store = try scene.store("c.sqlite")
        let afterStop = try BuildQueue(store: store).entries()
        #expect(!afterStop.isEmpty, "the worker finished everything before it was stopped")
        #expect(afterStop.allSatisfy { $0.workerID != stoppedID })

        // SIGKILL mid-build: its claims stay until their lease runs out…
        let killed = try WatchProcess(arguments, in: scene.path(""))
        #expect(killed.wait(timeout: 30) { Self.lines($0, "built").count >= 1 })
        killed.send(SIGKILL)
        _ = killed.exitStatus()
        #expect(killed.wasKilledBySignal)

        // …then a build takes them over and completes the catalog: nothing lost, nothing twice.
        let run = try TestBinary.run(
            try scene.buildArguments() + ["--lease", "1"], in: URL(fileURLWithPath: scene.path("")))
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(BuildReport.self, from: Data(run.stdout.utf8))
        #expect(report.failed == 0 && report.made > 0)
        try scene.expectSameAsReference()
    }
}
