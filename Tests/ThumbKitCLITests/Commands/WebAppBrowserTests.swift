// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit serve`'s web app in a real browser: the demo catalog, a password file made by
/// `thumbkit serve hash-password`, `thumbkit serve --catalog … --out …` on a free port, and
/// `scripts/browser-test.py` (headless Chromium through Selenium) against it. All process work
/// runs on a thread of its own, never on the cooperative pool.
struct WebAppBrowserTests {
    static let requirements: [ToolRequirement] = [
        .program("chromium", package: "chromium"), .program("chromedriver", package: "chromium-driver"),
        .file("/usr/lib/python3/dist-packages/selenium/__init__.py", package: "python3-selenium"),
    ]

    /// `scripts/browser-test.py`, found from this file's path.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/browser-test.py")

    @Test(.tags(.realProcess), .needs(requirements), .timeLimit(.minutes(10)))
    func theBrowserRatesUploadsAddsRemovesAndWalksTheFood() async throws {
        guard ToolRequirement.require(Self.requirements) else { return }
        let outcome = await Self.offPool { try Self.session() }
        let (run, serve) = try outcome.get()
        let script = try #require(run, "serve did not start: \(serve.stderr)")
        #expect(script.status == 0, "\(script.stdout)\n\(script.stderr)\nserve: \(serve.stderr)")
        #expect(script.stdout.contains("browser test passed"))
        #expect(serve.exitStatus == 0)
        for text in [serve.stdout, serve.stderr] {
            #expect(!text.contains(Self.password) && !text.contains(serve.hash))
        }
    }

    static let password = "correct horse battery \(UUID().uuidString.prefix(8))"

    struct ServeOutput {
        var stdout: String
        var stderr: String
        var exitStatus: Int32?
        var hash: String
    }

    /// Makes the catalog, starts the server, runs the script and stops the server.
    static func session() throws -> (TestBinary.Run?, ServeOutput) {
        let folder = try TestBinary.temporaryDirectory("webapp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let catalog = path("c.sqlite")
        for step in [
            ["demo", path("demo")], ["catalog", "import", path("demo/catalog.json"), "--catalog", catalog],
            ["build", "--catalog", catalog, "--out", path("out")],
        ] {
            let run = try TestBinary.run(step, in: folder)
            try #require(run.status == 0, "\(step): \(run.stderr)")
        }
        let hashed = try TestBinary.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "printf '%s\\n' \"$PW\" | \"$TK\" serve hash-password > \"$OUT\""],
            environment: [
                "PW": password, "TK": TestBinary.thumbkit.path, "OUT": path("pw.txt"), "PATH": "/usr/bin:/bin",
            ])
        try #require(hashed.status == 0, "\(hashed.stderr)")
        let hash = try String(contentsOfFile: path("pw.txt"), encoding: .utf8).trimmingCharacters(in: .newlines)
        try #require(hash.hasPrefix("scrypt$"))
        try Data(GeneratedImages.png(width: 240, height: 180, seed: 11)).write(
            to: URL(fileURLWithPath: path("new.png")))

        let serve = try WatchProcess(
            [
                "serve", "--catalog", catalog, "--out", path("out"), "--uploads", path("uploads"),
                "--edit-password-file", path("pw.txt"), "--bind", "127.0.0.1:0", "-j", "2",
            ], in: folder.path)
        guard serve.wait(timeout: 60, until: { $0.stdout.contains("\n") }) else {
            serve.send(SIGKILL)
            return (nil, ServeOutput(stdout: serve.stdout, stderr: serve.stderr, exitStatus: nil, hash: hash))
        }
        let base = String(serve.stdout.split(separator: "\n")[0].dropFirst("listening on ".count))
        let script = try TestBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            [
                Self.script.path, "--base", base, "--password", password, "--thumbkit", TestBinary.thumbkit.path,
                "--catalog", catalog, "--picture", path("new.png"),
            ])
        serve.send(SIGTERM)
        let status = serve.exitStatus(timeout: 60)
        return (script, ServeOutput(stdout: serve.stdout, stderr: serve.stderr, exitStatus: status, hash: hash))
    }

    /// Runs `body` on a thread of its own and awaits it.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: Result { try body() }) }
            thread.name = "webapp-browser-test"
            thread.start()
        }
    }
}
