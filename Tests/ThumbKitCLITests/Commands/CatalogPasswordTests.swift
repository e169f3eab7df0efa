// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKitCatalog
import ThumbKitTestSupport

@testable import ThumbKitCLI

/// Passwords of PostgreSQL catalogs: a warning when one is on the command line, none printed
/// anywhere, and the passwordless ways (PGPASSWORD, a passfile, a service) all working.
struct CatalogPasswordTests {
    private func run(_ argv: [String]) async -> (status: Int32, stdout: String, stderr: String) {
        let out = TextOutput()
        let err = TextOutput()
        let status = await CLI.run(argv, commands: ThumbKitCommands.all, stdout: out, stderr: err, environment: [:])
        return (status, out.text, err.text)
    }

    @Test(arguments: [
        ["catalog", "list", "--catalog", "postgresql://tk:Tr0ub?4dor@127.0.0.1:1/db"],
        ["catalog", "list", "--catalog=postgres://tk:Tr0ub4dor%2F@127.0.0.1:1/db"],
        ["catalog", "copy", "a.sqlite", "postgres://127.0.0.1:1/db?password=Tr0ub4dor"],
    ])
    func aPasswordOnTheCommandLineGetsOneWarningAndIsNeverPrinted(argv: [String]) async {
        let result = await run(argv)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("thumbkit: warning: a password on the command line can be read") == true)
        #expect(lines.first?.contains("PGPASSWORD") == true)
        #expect(!(result.stdout + result.stderr).contains("Tr0ub"), "\(result.stderr)")
    }

    @Test func aURLWithoutPasswordGetsNoWarning() async {
        for url in ["postgresql://tk@127.0.0.1:1/db?passfile=/nonexistent", "postgresql://127.0.0.1:1/db?service=x"] {
            let result = await run(["catalog", "list", "--catalog", url])
            #expect(result.status == 1)
            #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        }
    }

    /// The real binary, as systemd or Kubernetes runs it (docs/scale-out.md): the URL names no
    /// password, and libpq finds it in PGPASSWORD, in the passfile the URL or PGPASSFILE names,
    /// or in the service the URL or PGSERVICE names. Each copies a catalog there: exit 0, no
    /// warning.
    @Test func libpqFindsThePasswordOfAPasswordlessURL() throws {
        guard let base = TestPostgres.requireURL() else { return }
        let role = TestPostgres.uniqueName("tk_pwless_")
        let password = "Pa55?word:from@elsewhere/%x"
        let parts = try #require(URLComponents(string: base))
        let (host, port, database) = (parts.host ?? "127.0.0.1", parts.port ?? 5432, String(parts.path.dropFirst()))
        try PostgresAdmin.execute(
            "CREATE ROLE \(role) LOGIN PASSWORD '\(password)' IN ROLE thumbkit_password_auth", url: base)
        defer { try? PostgresAdmin.execute("DROP ROLE \(role)", url: base) }
        let folder = try TestBinary.temporaryDirectory("tk-pwless")
        defer { try? FileManager.default.removeItem(at: folder) }

        let passfile = folder.appendingPathComponent("pgpass").path
        try "\(host):\(port):\(database):\(role):\(password.replacingOccurrences(of: ":", with: "\\:"))\n"
            .write(toFile: passfile, atomically: false, encoding: .utf8)
        #expect(chmod(passfile, 0o600) == 0)  // libpq ignores a passfile that others can read
        let services = folder.appendingPathComponent("pg_service.conf").path
        try "[thumbkit]\nhost=\(host)\nport=\(port)\ndbname=\(database)\nuser=\(role)\npassword=\(password)\n"
            .write(toFile: services, atomically: false, encoding: .utf8)

        let source = folder.appendingPathComponent("source.sqlite").path
        try CatalogStore(path: source).write { try $0.addBug(title: "Copied") }
        let plain = "postgresql://\(role)@\(host):\(port)/\(database)"
        let ways: [(label: String, url: String, environment: [String: String])] = [
            ("PGPASSWORD", plain, ["PGPASSWORD": password]),
            ("passfile=", plain + "?passfile=" + passfile, [:]),
            ("PGPASSFILE", plain, ["PGPASSFILE": passfile]),
            ("service=", "postgresql://?service=thumbkit", ["PGSERVICEFILE": services]),
            ("PGSERVICE", "postgresql://", ["PGSERVICEFILE": services, "PGSERVICE": "thumbkit"]),
        ]
        for way in ways {
            let schema = TestPostgres.uniqueName("tk_pwless_s_")
            try PostgresAdmin.execute("CREATE SCHEMA \(schema) AUTHORIZATION \(role)", url: base)
            defer { try? PostgresAdmin.execute("DROP SCHEMA \(schema) CASCADE", url: base) }
            let url = way.url + (way.url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
            var environment = ProcessInfo.processInfo.environment
            for key in ["PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE", "PGUSER", "PGHOST", "PGPORT"] {
                environment[key] = nil
            }
            environment["HOME"] = folder.path  // no ~/.pgpass of the machine's
            environment.merge(way.environment) { $1 }
            let result = try TestBinary.run(["catalog", "copy", source, url], environment: environment)
            #expect(result.status == 0, "\(way.label): \(result.stderr)")
            #expect(!result.stderr.contains("warning"), "\(way.label): \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("Pa55"), "\(way.label)")
        }
    }
}
