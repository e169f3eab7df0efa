// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit serve` as a process: refuses to run unsigned by accident, prints exactly one line
/// once it listens and never a key or salt, serves, and stops with exit 0 on SIGTERM.
struct ServeCommandTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    @Test(.tags(.realProcess)) func withoutAKeyItRefusesToStartUnlessInsecure() async throws {
        let run = try await TestBinary.runOffPool(["serve", "--bind", "127.0.0.1:0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--insecure"))
        #expect(run.stdout.isEmpty)
    }

    @Test(.tags(.realProcess)) func aBadKeyIsRefusedWithoutQuotingIt() async throws {
        let secret = "not-hex-but-secret-\(UUID().uuidString)"
        let run = try await TestBinary.runOffPool([
            "serve", "--bind", "127.0.0.1:0", "--key", secret, "--salt", Self.salt,
        ])
        #expect(run.status == 2)
        #expect(!run.stderr.contains(secret) && !run.stderr.contains(Self.salt))
    }

    @Test(.tags(.realProcess)) func itListensServesAndStopsOnSigtermWithoutPrintingTheKey() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(GeneratedImages.jpeg(width: 320, height: 240, seed: 4)).write(
            to: folder.appendingPathComponent("a.jpg"))
        let serve = try WatchProcess(
            ["serve", "--bind", "127.0.0.1:0", "--root", folder.path, "--key", Self.key, "--salt", Self.salt],
            in: folder.path)
        #expect(try await offPool { serve.wait(timeout: 30) { $0.stdout.contains("\n") } })
        let lines = serve.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let line = String(lines.first ?? "")
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        let base = String(line.dropFirst("listening on ".count))
        #expect(Int(base.split(separator: ":").last ?? "") ?? 0 > 0)

        // imgproxy's documented signature of this path with that key and salt, made here
        // independently with OpenSSL's command line.
        let path = "/rs:fill:64:64/plain/local:///a.jpg@jpg"
        let signature = try await Self.opensslSignature(path: path)
        let ok = try await TestBinary.runOffPool(
            executable: URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", base + "/" + signature + path])
        #expect(ok.stdout == "200 image/jpeg")
        let bad = try await TestBinary.runOffPool(
            executable: URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/AAAA" + path])
        #expect(bad.stdout == "403")

        serve.send(SIGTERM)
        #expect(try await offPool { serve.exitStatus(timeout: 30) } == 0, "\(serve.stderr)")
        for text in [serve.stdout, serve.stderr] {
            #expect(!text.contains(Self.key) && !text.contains(Self.salt))
        }
        #expect(serve.stderr.contains("warning: a --key on the command line can be read by every user"))
    }

    /// `--key-file`: pairs from a file (comments, and a second pair for rotation) sign as
    /// `--key`/`--salt` do, with no warning; nothing of the file is ever printed.
    @Test(.tags(.realProcess)) func aKeyFileSignsAsKeyAndSaltDoWithoutAWarning() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-keyfile")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(GeneratedImages.jpeg(width: 320, height: 240, seed: 4)).write(
            to: folder.appendingPathComponent("a.jpg"))
        let other = String(repeating: "ab", count: 32)
        let keys = folder.appendingPathComponent("keys")
        try Data("# rotation: the new pair first\n\(other):\(other)\n\n  \(Self.key):\(Self.salt)  \n".utf8)
            .write(to: keys)
        chmod(keys.path, 0o600)
        let serve = try WatchProcess(
            ["serve", "--bind", "127.0.0.1:0", "--root", folder.path, "--key-file", keys.path], in: folder.path)
        #expect(try await offPool { serve.wait(timeout: 30) { $0.stdout.contains("\n") } })
        let base = String(String(serve.stdout.split(separator: "\n").first ?? "").dropFirst("listening on ".count))
        let path = "/rs:fill:64:64/plain/local:///a.jpg@jpg"
        let signature = try await Self.opensslSignature(path: path)
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let ok = try await TestBinary.runOffPool(
            executable: curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/" + signature + path])
        #expect(ok.stdout == "200")
        let bad = try await TestBinary.runOffPool(
            executable: curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/AAAA" + path])
        #expect(bad.stdout == "403")
        serve.send(SIGTERM)
        #expect(try await offPool { serve.exitStatus(timeout: 30) } == 0, "\(serve.stderr)")
        #expect(!serve.stderr.contains("warning"), "\(serve.stderr)")
        for text in [serve.stdout, serve.stderr] {
            #expect(!text.contains(Self.key) && !text.contains(Self.salt) && !text.contains(other))
        }
    }

    /// A key file with a bad line is refused (exit 2) by the line's number, never its text.
    @Test(.tags(.realProcess)) func aBadKeyFileLineIsRefusedByNumberWithoutQuotingIt() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-badkeys")
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "secret\(UUID().uuidString.prefix(8))"
        let keys = folder.appendingPathComponent("keys")
        for (text, reason) in [
            ("\(Self.key):\(Self.salt)\n\(secret)\n", "line 2 is not KEY:SALT"),
            ("\(Self.key):\(secret)\n", "salt 1 is not"),
            ("# only a comment\n", "no KEY:SALT line"),
        ] {
            try Data(text.utf8).write(to: keys)
            let run = try await TestBinary.runOffPool(["serve", "--bind", "127.0.0.1:0", "--key-file", keys.path])
            #expect(run.status == 2)
            #expect(run.stderr.contains(keys.path) && run.stderr.contains(reason), "\(run.stderr)")
            #expect(!run.stderr.contains(secret) && !run.stderr.contains(Self.key) && !run.stderr.contains(Self.salt))
        }
    }

    /// `--json`: the one stdout line is `{"listening":"http://HOST:PORT"}`; errors stay on
    /// stderr; and neither output nor `/metrics` shows the key or the salt, in any case.
    @Test(.tags(.realProcess)) func withJSONTheListeningLineIsJSONAndNoSecretIsShownAnywhere() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-json")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = try WatchProcess(
            [
                "serve", "--json", "--bind", "127.0.0.1:0", "--root", folder.path, "--key", Self.key, "--salt",
                Self.salt,
            ],
            in: folder.path)
        #expect(try await offPool { serve.wait(timeout: 30) { $0.stdout.contains("\n") } })
        let lines = serve.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let line = String(lines.first ?? "")
        let object = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        let url = try #require(object["listening"], "no 'listening' in \(line)")
        #expect(object.count == 1)
        #expect(url.hasPrefix("http://127.0.0.1:") && Int(url.split(separator: ":").last ?? "") ?? 0 > 0)
        #expect(line == "{\"listening\":\"\(url)\"}")
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let forbidden = try await TestBinary.runOffPool(
            executable: curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", url + "/AAAA/w:10/plain/local:///a.jpg"])
        #expect(forbidden.stdout == "403")
        let metrics = try await TestBinary.runOffPool(executable: curl, ["-s", url + "/metrics"])
        #expect(metrics.stdout.contains("thumbkit_requests_total{status=\"403\"} 1"))
        serve.send(SIGTERM)
        #expect(try await offPool { serve.exitStatus(timeout: 30) } == 0, "\(serve.stderr)")
        #expect(serve.stdout.split(separator: "\n").count == 1)
        for text in [serve.stdout, serve.stderr, metrics.stdout] {
            for secret in [Self.key, Self.salt, Self.key.uppercased(), Self.salt.uppercased()] {
                #expect(!text.contains(secret))
            }
        }
    }

    /// A `--presets` file is read with a byte cap: an oversized one is refused, with one line
    /// naming it, before it is read or parsed.
    @Test(.tags(.realProcess)) func anOversizedPresetsFileIsRefusedWithALineNamingIt() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-presets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big-presets.txt")
        // Comment lines, valid in a presets file, so only the size can be the reason: 1 MiB and a bit.
        let line = "# a comment, which a presets file may hold\n"
        try Data(String(repeating: line, count: (1 << 20) / line.utf8.count + 1).utf8).write(to: big)
        // Watched, not run to completion: a server that took the file would never exit.
        let serve = try WatchProcess(
            ["serve", "--insecure", "--bind", "127.0.0.1:0", "--presets", big.path], in: folder.path)
        let status = try await offPool { serve.exitStatus(timeout: 30) }
        #expect(status == 1)
        #expect(serve.stdout.isEmpty)
        let lines = serve.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(serve.stderr)")
        #expect(
            serve.stderr.contains(big.path) && serve.stderr.contains("over the limit of 1048576 bytes"),
            "\(serve.stderr)")
    }

    /// `base64url(HMAC-SHA256(key, salt ‖ path))` without padding, by `openssl` and `basenc`.
    static func opensslSignature(path: String) async throws -> String {
        let script = """
            printf '%s' "$SALT" | xxd -r -p > "$T/msg"; printf '%s' "$P" >> "$T/msg"
            openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEY" -binary "$T/msg" | basenc --base64url | tr -d '=\\n'
            """
        let folder = try TestBinary.temporaryDirectory("sig")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await TestBinary.runOffPool(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", script],
            environment: ["KEY": key, "SALT": salt, "P": path, "T": folder.path, "PATH": "/usr/bin:/bin"])
        return run.stdout
    }
}
