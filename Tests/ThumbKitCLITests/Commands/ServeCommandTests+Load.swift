// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit serve` under load, as a process, with Python's `http.client` as the client: a
/// drain on SIGTERM, 429 from a full render queue, 503 at `--max-clients` while `/health` and
/// `/metrics` still answer. Every client and every wait runs off the cooperative pool.
extension ServeCommandTests {
    /// A served folder with one large PNG (PNG has no shrink-on-load, so every render decodes
    /// all 12 MP: hundreds of milliseconds), and the `serve` process over it.
    final class LoadedServer: Sendable {
        let folder: URL
        let process: WatchProcess
        let base: String

        init(_ extra: [String]) async throws {
            folder = try TestBinary.temporaryDirectory("serve-load")
            let big = folder.appendingPathComponent("big.png")
            try await offPool { try Data(GeneratedImages.png(width: 4000, height: 3000, seed: 5)).write(to: big) }
            process = try WatchProcess(
                ["serve", "--bind", "127.0.0.1:0", "--root", folder.path, "--insecure"] + extra, in: folder.path)
            let process = process
            let listening = try await offPool { process.wait(timeout: 30) { $0.stdout.contains("\n") } }
            try #require(listening, "serve printed no listening line: \(process.stderr)")
            base = String(process.stdout.split(separator: "\n").first?.split(separator: " ").last ?? "")
        }

        /// The `index`th distinct slow render: a PNG of its own size, so no two share a result.
        static func slowPath(_ index: Int) -> String {
            "/_/rs:fit:\(1000 + index):\(1000 + index)/plain/local:///big.png@png"
        }

        var port: String { String(base.split(separator: ":").last ?? "") }

        /// Kills the server unless it has exited, waits for it (off the pool), removes the folder.
        func stop() async {
            let process = process
            _ = try? await offPool { process.exitStatus(timeout: 0) }
            try? FileManager.default.removeItem(at: folder)
        }

        deinit {
            // A test that threw before `stop`: the kill must happen here, not on a thread that
            // may not run before the test process exits (that left servers running). A server
            // that has exited is not signalled (its pid may be reused).
            _ = process.exitStatus(timeout: 0)
            let folder = folder
            Thread { try? FileManager.default.removeItem(at: folder) }.start()
        }
    }

    /// Runs `script` with `/usr/bin/python3` (its `http.client`), off the cooperative pool; what
    /// it prints on stdout, one JSON object of strings.
    static func python(_ script: String, _ arguments: [String]) async throws -> [String: String] {
        let run = try await TestBinary.runOffPool(
            executable: URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
        try #require(run.status == 0, "python failed: \(run.stderr)")
        return try JSONDecoder().decode([String: String].self, from: Data(run.stdout.utf8))
    }

    /// SIGTERM while a render is in flight: that request still gets its 200, `/health` answers
    /// 503 meanwhile on connections opened before the signal, and the process exits 0 well within
    /// 2 × --timeout.
    ///
    /// Once the server stops listening, libmicrohttpd closes each connection after its answer, and
    /// a `/health` answered just before the signal can be the one that closes (a 200 with
    /// `Connection: close`; seen once in 12 runs under load). The client then carries on with a
    /// connection it opened before the signal, as a load balancer with a pool would.
    @Test(.tags(.realProcess)) func sigtermDrainsTheRequestInFlightAndHealthAnswers503Meanwhile() async throws {
        // --timeout 30: under ThreadSanitizer the 12 MP render takes several seconds, and a render
        // past --timeout answers 503, which is not what this test is about. --header-timeout 120:
        // the spare connections sit idle until they are needed.
        let serve = try await LoadedServer(["--timeout", "30", "-j", "1", "--header-timeout", "120"])
        let script = """
            import http.client, json, os, signal, sys, threading, time
            port, pid, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            def connected():
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.connect()
                return connection
            monitor, spares = connected(), [connected() for _ in range(3)]
            def get(connection, target):
                connection.request("GET", target)
                answer = connection.getresponse()
                return answer.status, answer.read().decode("utf-8", "replace"), answer.will_close
            out = {"before": get(monitor, "/health")[0], "closed_on_200": 0}
            def slow():
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                status = get(connection, path)[0]
                out["slow"] = status
            worker = threading.Thread(target=slow)
            worker.start()
            deadline = time.time() + 30
            while time.time() < deadline and "thumbkit_renders_in_flight 1" not in get(monitor, "/metrics")[1]:
                time.sleep(0.005)
            out["killed_at"] = time.time()
            os.kill(pid, signal.SIGTERM)
            while time.time() < deadline:
                status, _, closed = get(monitor, "/health")
                if status == 200 and closed:
                    out["closed_on_200"] += 1
                    monitor = spares.pop()
                if status != 200:
                    out["during"], out["slow_in_flight"] = status, int(worker.is_alive())
                    break
                time.sleep(0.005)
            worker.join(60)
            print(json.dumps({k: str(v) for k, v in out.items()}))
            """
        let seen = try await Self.python(
            script, [serve.port, String(serve.process.pid), LoadedServer.slowPath(0)])
        #expect(seen["before"] == "200")
        #expect(seen["during"] == "503")
        #expect(
            seen["closed_on_200"] == "0" || seen["closed_on_200"] == "1", "more than the one racing answer: \(seen)")
        #expect(seen["slow_in_flight"] == "1", "the render ended before /health said 503: \(seen)")
        #expect(seen["slow"] == "200")
        let process = serve.process
        let status = try await offPool { process.exitStatus(timeout: 90) }
        let killedAt = Double(seen["killed_at"] ?? "") ?? 0
        let drain = Date().timeIntervalSince1970 - killedAt
        #expect(status == 0, "\(serve.process.stderr)")
        #expect(drain < 60, "exited \(drain) s after SIGTERM, over 2 x --timeout")
    }

    /// `-j 1 --queue 1`: a burst of distinct slow renders gets 429 with `Retry-After` for those
    /// beyond the one running and the one waiting, and 200 for those two.
    @Test(.tags(.realProcess)) func aBurstBeyondTheQueueGets429WithRetryAfter() async throws {
        let serve = try await LoadedServer(["-j", "1", "--queue", "1", "--timeout", "30"])
        let script = """
            import http.client, json, sys, threading
            port, count = int(sys.argv[1]), int(sys.argv[2])
            statuses, retry = [], set()
            lock = threading.Lock()
            def one(index):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                connection.request("GET", "/_/rs:fit:%d:%d/plain/local:///big.png@png" % (1000 + index, 1000 + index))
                answer = connection.getresponse()
                answer.read()
                with lock:
                    statuses.append(answer.status)
                    if answer.status == 429:
                        retry.add(answer.getheader("Retry-After"))
            threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
            for thread in threads: thread.start()
            for thread in threads: thread.join(120)
            out = {"ok": statuses.count(200), "busy": statuses.count(429),
                   "other": len(statuses) - statuses.count(200) - statuses.count(429),
                   "retry": ",".join(sorted(str(r) for r in retry))}
            print(json.dumps({k: str(v) for k, v in out.items()}))
            """
        let seen = try await Self.python(script, [serve.port, "12"])
        await serve.stop()
        #expect(seen["other"] == "0", "\(seen)")
        #expect(Int(seen["busy"] ?? "") ?? 0 >= 1, "\(seen)")
        #expect(Int(seen["ok"] ?? "") ?? 0 >= 2, "\(seen)")
        #expect(seen["retry"] == "1", "\(seen)")
    }

    /// `--max-clients 2` with two slow renders in flight: a third image request is refused with
    /// 503 and `Retry-After`, while `/health` and `/metrics` still answer 200.
    @Test(.tags(.realProcess)) func atMaxClientsHealthAndMetricsStillAnswer() async throws {
        let serve = try await LoadedServer(["--max-clients", "2", "-j", "1", "--queue", "8", "--timeout", "30"])
        let script = """
            import http.client, json, sys, threading, time
            port = int(sys.argv[1])
            def get(target):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                connection.request("GET", target)
                answer = connection.getresponse()
                return answer.status, answer.getheader("Retry-After"), answer.read().decode("utf-8", "replace")
            out = {}
            def slow(index):
                out["slow%d" % index] = get(sys.argv[2 + index])[0]
            workers = [threading.Thread(target=slow, args=(i,)) for i in range(2)]
            for worker in workers: worker.start()
            deadline = time.time() + 30
            while time.time() < deadline:
                metrics = get("/metrics")[2]
                if "thumbkit_renders_in_flight 1" in metrics and "thumbkit_queue_depth 1" in metrics:
                    break
                time.sleep(0.005)
            status, retry, _ = get(sys.argv[4])
            out["third"], out["third_retry"] = status, retry
            out["health"] = get("/health")[0]
            out["metrics"] = get("/metrics")[0]
            out["both_in_flight"] = int(all(worker.is_alive() for worker in workers))
            for worker in workers: worker.join(120)
            print(json.dumps({k: str(v) for k, v in out.items()}))
            """
        let seen = try await Self.python(
            script, [serve.port] + (0..<3).map(LoadedServer.slowPath))
        await serve.stop()
        #expect(seen["both_in_flight"] == "1", "the slow renders ended too soon: \(seen)")
        #expect(seen["third"] == "503", "\(seen)")
        #expect(seen["third_retry"] == "1", "\(seen)")
        #expect(seen["health"] == "200", "\(seen)")
        #expect(seen["metrics"] == "200", "\(seen)")
        #expect(seen["slow0"] == "200" && seen["slow1"] == "200", "\(seen)")
    }

    /// `--header-timeout 1`: a client sending its header 4 bytes every 200 ms (10 s in all) is
    /// cut off after about a second, while `/health` is answered on another connection meanwhile.
    @Test(.tags(.realProcess)) func aSlowHeaderIsCutOffAfterHeaderTimeout() async throws {
        let folder = try TestBinary.temporaryDirectory("serve-slowloris")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = try WatchProcess(
            ["serve", "--insecure", "--bind", "127.0.0.1:0", "--header-timeout", "1"], in: folder.path)
        #expect(try await offPool { serve.wait(timeout: 30) { $0.stdout.contains("\n") } })
        let port = String(serve.stdout.split(separator: "\n").first?.split(separator: ":").last ?? "")
        let script = """
            import http.client, json, socket, sys, time
            port = int(sys.argv[1])
            slow = socket.create_connection(("127.0.0.1", port))
            slow.settimeout(0.2)
            header = b"GET /health HTTP/1.1\\r\\nHost: t\\r\\nX-Pad: " + b"p" * 180 + b"\\r\\n\\r\\n"
            out, start = {"cut": 0, "health": 0}, time.time()
            for offset in range(0, len(header), 4):
                if offset == 8:
                    other = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    other.request("GET", "/health")
                    out["health"] = other.getresponse().status
                try:
                    slow.sendall(header[offset:offset + 4])
                    if not slow.recv(65536):
                        out["cut"] = 1
                        break
                except socket.timeout:
                    pass
                except OSError:
                    out["cut"] = 1
                    break
            out["seconds"] = time.time() - start
            print(json.dumps({k: str(v) for k, v in out.items()}))
            """
        let seen = try await Self.python(script, [port])
        #expect(seen["cut"] == "1", "the slow header was sent whole: \(seen)")
        let seconds = Double(seen["seconds"] ?? "") ?? 0
        #expect(seconds >= 1 && seconds < 6, "cut off after \(seconds) s")
        #expect(seen["health"] == "200", "\(seen)")
        serve.send(SIGTERM)
        #expect(try await offPool { serve.exitStatus(timeout: 30) } == 0, "\(serve.stderr)")
    }
}
