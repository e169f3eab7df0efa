// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitServe

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit serve hash-password` and `serve --catalog` as processes (run off the cooperative
/// pool): the hash line, a password file that is not one, and the upload cap.
struct ServeWebAppCommandTests {
    /// `printf '%s\n' PW | thumbkit serve hash-password [extra]`.
    static func hash(_ password: String, _ extra: [String] = []) throws -> TestBinary.Run {
        try TestBinary.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "printf '%s\\n' \"$PW\" | \"$TK\" serve hash-password \"$@\"", "sh"] + extra,
            environment: ["PW": password, "TK": TestBinary.thumbkit.path, "PATH": "/usr/bin:/bin"])
    }

    @Test(.tags(.realProcess)) func hashPasswordPrintsALineThatChecksOnlyThatPassword() async throws {
        let runs = try await Self.offPool { (try Self.hash("s3cret pass"), try Self.hash("s3cret pass", ["--pbkdf2"])) }
        for run in [runs.0, runs.1] {
            #expect(run.status == 0 && run.stderr.isEmpty)
            #expect(!run.stdout.contains("s3cret"))
            let hash = try #require(PasswordHash(parsing: run.stdout))
            #expect(hash.verify("s3cret pass") && !hash.verify("s3cret pas"))
        }
        #expect(runs.0.stdout.hasPrefix("scrypt$32768$8$1$") && runs.1.stdout.hasPrefix("pbkdf2-sha256$600000$"))
        let empty = try await Self.offPool { try Self.hash("") }
        #expect(empty.status == 1 && empty.stdout.isEmpty)
    }

    @Test(.tags(.realProcess)) func aPasswordFileThatIsNoHashIsRefusedWithoutQuotingIt() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-pw")
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "plain-password-\(UUID().uuidString)"
        try Data(secret.utf8).write(to: folder.appendingPathComponent("pw.txt"))
        let catalog = folder.appendingPathComponent("c.sqlite").path
        let run = try await Self.offPool {
            try TestBinary.run([
                "serve", "--catalog", catalog, "--edit-password-file", folder.appendingPathComponent("pw.txt").path,
                "--bind", "127.0.0.1:0",
            ])
        }
        #expect(run.status == 2)
        #expect(run.stderr.contains("hash-password") && !run.stderr.contains(secret))
    }

    @Test(.tags(.realProcess)) func aBodyOverMaxUploadIsRefusedWith413() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-cap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result: (String, String) = try await Self.offPool {
            let catalog = folder.appendingPathComponent("c.sqlite").path
            let made = try TestBinary.run(["demo", folder.appendingPathComponent("demo").path])
            try #require(made.status == 0)
            let imported = try TestBinary.run([
                "catalog", "import", folder.appendingPathComponent("demo/catalog.json").path, "--catalog", catalog,
            ])
            try #require(imported.status == 0, "\(imported.stderr)")
            let serve = try WatchProcess(
                [
                    "serve", "--catalog", catalog, "--out", folder.appendingPathComponent("out").path, "--no-worker",
                    "--max-upload", "1024", "--bind", "127.0.0.1:0",
                ], in: folder.path)
            defer {
                serve.send(SIGTERM)
                _ = serve.exitStatus(timeout: 30)
            }
            try #require(serve.wait(timeout: 30) { $0.stdout.contains("\n") }, "\(serve.stderr)")
            let base = String(serve.stdout.split(separator: "\n")[0].dropFirst("listening on ".count))
            let curl = URL(fileURLWithPath: "/usr/bin/curl")
            let big = try TestBinary.run(
                executable: curl,
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "x", count: 4096),
                    base + "/bugs/1/rating",
                ])
            let page = try TestBinary.run(
                executable: curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/bugs/1"])
            return (big.stdout, page.stdout)
        }
        #expect(result.0 == "413")
        #expect(result.1 == "200")
    }

    /// Runs `body` on a thread of its own and awaits it.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
