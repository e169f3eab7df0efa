// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitCatalog
import ThumbKitCatalogTestSupport
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// `build` and `worker` on a PostgreSQL catalog whose connection never stays up: a trigger
/// terminates the backend of every claim, so each reconnect works and each claim is cut off,
/// until `--reconnect-timeout` runs out. `build` then still prints its summary (the JSON with
/// the failure) and exits 1; `worker` says why in one line and exits 1.
struct BuildReconnectTests {
    /// A PostgreSQL catalog of three bugs, with `trigger` (SQL) installed in its schema.
    private func catalog(_ workspace: TestWorkspace, trigger: String) throws -> String {
        let store = try workspace.store(backend: .postgres)
        try store.write { tx in
            for index in 0..<3 {
                let picture = try workspace.image("img/\(index).png", width: 24, height: 24, seed: index)
                try tx.addBug(title: "Bug \(index)", image: try ImageRef.load(path: picture))
            }
        }
        try workspace.addAssets(to: store)
        let url = try CatalogBackend.postgres.catalog(in: workspace)
        try PostgresAdmin.execute(trigger, url: url)
        return url
    }

    /// Every claim kills its own connection.
    private func killingCatalog(_ workspace: TestWorkspace) throws -> String {
        try catalog(
            workspace,
            trigger: """
                CREATE FUNCTION tk_kill_claimer() RETURNS trigger LANGUAGE plpgsql AS
                  $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
                CREATE TRIGGER tk_kill_claims BEFORE UPDATE ON build_queue FOR EACH ROW
                  WHEN (NEW.worker_id IS NOT NULL) EXECUTE FUNCTION tk_kill_claimer();
                """)
    }

    /// The first record's commit is cut off by the drop (its first output row kills the
    /// connection, once): the record goes back to the queue at once and is built after the
    /// reconnect, so the build makes everything and fails nothing.
    @Test func aCommitCutOffByADropIsBuiltAgainAndTheBuildFinishes() async throws {
        guard TestPostgres.requireURL() != nil else { return }
        let workspace = try TestWorkspace()
        let url = try catalog(
            workspace,
            trigger: """
                CREATE SEQUENCE tk_kill_count;
                CREATE FUNCTION tk_kill_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                  IF nextval('tk_kill_count') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
                  RETURN NEW; END $$;
                CREATE TRIGGER tk_kill_once BEFORE INSERT ON outputs FOR EACH ROW EXECUTE FUNCTION tk_kill_once();
                """)
        func build() async throws -> (status: Int32, summary: [String: Any], stderr: String) {
            let out = TextOutput()
            let err = TextOutput()
            let status = await CLI.run(
                ["build", "--catalog", url, "--out", workspace.path("out"), "-j", "1", "--json"],
                commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any], "\(out.text)")
            return (status, summary, err.text)
        }
        let first = try await build()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.summary["failed"] as? Int == 0, "\(first.summary)")
        #expect((first.summary["made"] as? Int ?? 0) > 0)
        #expect(first.stderr.contains("connection back after 1 attempt(s)"), "\(first.stderr)")
        let second = try await build()
        #expect(second.status == 0 && second.summary["made"] as? Int == 0, "\(second.summary)")
        #expect(second.summary["failed"] as? Int == 0)
    }

    @Test func aBuildThatGivesUpReconnectingStillPrintsItsJSONSummary() async throws {
        guard TestPostgres.requireURL() != nil else { return }
        let workspace = try TestWorkspace()
        let url = try killingCatalog(workspace)
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(
            [
                "build", "--catalog", url, "--out", workspace.path("out"), "-j", "1", "--json", "--reconnect-timeout",
                "1",
            ],
            commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
        #expect(status == 1)
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any], "\(out.text)")
        let failures = try #require(summary["failures"] as? [String])
        let gaveUp = "connection lost, and not back within the reconnect timeout (1 s): "
        #expect(failures.count == 1 && failures[0].contains(gaveUp), "\(failures)")
        #expect(summary["failed"] as? Int == 1)
        #expect(summary["made"] as? Int == 0)
        #expect(err.text.split(separator: "\n").last?.contains(gaveUp) == true, "\(err.text)")
    }

    @Test func aWorkerThatGivesUpReconnectingSaysWhyInOneLineAndExitsOne() throws {
        guard TestPostgres.requireURL() != nil else { return }
        let workspace = try TestWorkspace()
        let url = try killingCatalog(workspace)
        let run = try TestBinary.run([
            "worker", "--catalog", url, "--out", workspace.path("out"), "-j", "1", "--poll", "0.1",
            "--reconnect-timeout", "1",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let last = try #require(run.stderrLines.last)
        #expect(last.hasPrefix("thumbkit: "))
        #expect(last.contains("connection lost, and not back within the reconnect timeout (1 s): "), "\(run.stderr)")
        #expect(run.stderrLines.contains { $0.contains(": reconnect: ") && $0.contains("reconnecting in") })
    }
}
