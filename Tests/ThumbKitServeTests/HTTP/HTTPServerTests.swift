// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitServe

/// The HTTP layer on its own, driven with exact bytes over a socket. Every client runs off
/// Swift's cooperative pool (`RawHTTPClient.fetch`, `offPool`), and every wait has a deadline.
/// A client whose effect is waited for under a deadline is started on a thread at once
/// (`StartedOffPool`), never in a task, which may not start while other tests hold the pool.
struct HTTPServerTests {
    /// Answers `METHOD TARGET X-Test BODY`; requests to `/slow` wait at `gate` first.
    struct EchoResponder: HTTPResponding {
        let gate: Gate
        let calls = Locked(0)

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            calls.withLock { $0 += 1 }
            if request.path == "/slow" { await gate.pass() }
            let text = [
                request.method, request.target, request.headers["x-test"] ?? "-",
                String(decoding: request.body, as: UTF8.self),
            ]
            return HTTPResponse(
                status: .ok, headers: [("Content-Type", "text/plain")], body: Array(text.joined(separator: " ").utf8))
        }
    }

    /// Holds tasks until opened, and counts those that arrived.
    final class Gate: Sendable {
        /// Guards whether the gate is open and the tasks waiting at it.
        private let state = Locked<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
        /// How many tasks arrived; a waiter wakes on each arrival.
        private let arrivals = Observed(0)

        func pass() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state -> Bool in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                arrivals.update { $0 += 1 }
                if open { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            waiting.forEach { $0.resume() }
        }

        var arrived: Int { arrivals.value }

        /// Waits (up to 30 s, off the cooperative pool) until `count` tasks have arrived.
        func waitForArrivals(_ count: Int) async -> Bool {
            await arrivals.waitOffPool(timeout: 30) { $0 >= count }
        }
    }

    final class Statuses: HTTPObserving {
        let seen = Locked<[Int]>([])
        func observe(status: HTTPStatus, seconds: Double) { seen.withLock { $0.append(status.rawValue) } }
    }

    static func server(
        _ options: HTTPServerOptions = HTTPServerOptions(), gate: Gate = Gate(), observer: Statuses? = nil
    )
        throws -> (HTTPServer, UInt16, EchoResponder)
    {
        var options = options
        options.bind = HTTPBindAddress(host: "127.0.0.1", port: 0)
        let responder = EchoResponder(gate: gate)
        let server = HTTPServer(options: options, responder: responder, observer: observer)
        let address = try server.start()
        #expect(address.port != 0)
        return (server, address.port, responder)
    }

    /// Stops `server` on a thread of its own: `stop` waits for the responders still working,
    /// which a failed test may have left waiting at a gate.
    static func stopOffPool(_ server: HTTPServer) {
        Thread { server.stop() }.start()
    }

    static func get(_ target: String, headers: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: test\r\n\(headers)Connection: close\r\n\r\n"
    }

    @Test func theTargetReachesTheResponderExactlyAsSent() async throws {
        let observer = Statuses()
        let (server, port, _) = try Self.server(observer: observer)
        defer { Self.stopOffPool(server) }
        let answer = try await RawHTTPClient.fetch(
            Self.get("/a%2Fb/../c%00?x=%20&y", headers: "X-TEST: one\r\n"), port: port)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "GET /a%2Fb/../c%00?x=%20&y one ")
        #expect(answer.header("content-length") == String(answer.body.count))
        #expect(observer.seen.withLock { $0 } == [200])
    }

    @Test func aPostBodyArrivesWhole() async throws {
        let (server, port, _) = try Self.server()
        defer { Self.stopOffPool(server) }
        let body = String(repeating: "b", count: 100_000)
        let answer = try await RawHTTPClient.fetch(
            "POST /form HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
            port: port)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "POST /form - \(body)")
    }

    @Test func limitsAnswerBeforeTheResponderRuns() async throws {
        let (server, port, responder) = try Self.server(
            HTTPServerOptions(maxURLLength: 1024, maxHeaderBytes: 2048, maxBodyBytes: 1000))
        defer { Self.stopOffPool(server) }
        let long = "/" + String(repeating: "a", count: 1100)
        #expect(try await RawHTTPClient.fetch(Self.get(long), port: port).status == 414)
        let header = "X-Big: " + String(repeating: "h", count: 3000) + "\r\n"
        #expect(try await RawHTTPClient.fetch(Self.get("/", headers: header), port: port).status == 431)
        // Declared too large: refused from the header, before a byte of body is sent.
        let declared = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5000000\r\nConnection: close\r\n\r\n"
        #expect(try await RawHTTPClient.fetch(declared, port: port).status == 413)
        // Chunked, so undeclared: refused once the body passes the limit.
        let chunk = String(repeating: "c", count: 600)
        let chunked =
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
        #expect(try await RawHTTPClient.fetch(chunked, port: port).status == 413)
        #expect(
            try await RawHTTPClient.fetch(
                "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: x\r\nConnection: close\r\n\r\n", port: port
            ).status == 400)
        #expect(responder.calls.withLock { $0 } == 0)
        #expect(try await RawHTTPClient.fetch(Self.get("/fine"), port: port).status == 200)
    }

    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "under ThreadSanitizer the full parallel run holds the cooperative pool for minutes (see StartedOffPool)")
    )
    func aFullServerAnswers503WhileHealthStillAnswers() async throws {
        let gate = Gate()
        let (server, port, _) = try Self.server(HTTPServerOptions(maxClients: 2), gate: gate)
        defer { Self.stopOffPool(server) }
        defer { gate.open() }
        let slow = (0..<2).map { _ in StartedOffPool { try RawHTTPClient.send(Self.get("/slow"), port: port) } }
        #expect(await gate.waitForArrivals(2))
        let busy = try await RawHTTPClient.fetch(Self.get("/slow"), port: port)
        #expect(busy.status == 503)
        #expect(busy.header("retry-after") == "1")
        #expect(try await RawHTTPClient.fetch(Self.get("/health"), port: port).status == 200)
        gate.open()
        for request in slow { #expect(try await request.value().status == 200) }
        #expect(try await RawHTTPClient.fetch(Self.get("/slow"), port: port).status == 200)
    }

    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "under ThreadSanitizer the full parallel run holds the cooperative pool for minutes (see StartedOffPool)")
    )
    func shutdownFinishesWhatIsInFlightAndRefusesNewConnections() async throws {
        let gate = Gate()
        let (server, port, _) = try Self.server(gate: gate)
        defer { Self.stopOffPool(server) }
        defer { gate.open() }
        let slow = StartedOffPool { try RawHTTPClient.send(Self.get("/slow"), port: port) }
        #expect(await gate.waitForArrivals(1))
        server.beginShutdown()
        #expect(server.isShuttingDown)
        if case .success(let socket) = try await offPool({ RawHTTPClient.connect(port: port) }) {
            close(socket)
            Issue.record("a new connection was accepted after shutdown began")
        }
        #expect(await server.waitUntilIdle(timeout: .milliseconds(50)) == false)
        gate.open()
        let answer = try await slow.value()
        #expect(answer.status == 200)
        #expect(answer.header("connection")?.lowercased() == "close")
        #expect(await server.waitUntilIdle(timeout: .seconds(30)))
    }

    /// A header sent a few bytes every 200 ms never lets the idle timeout (30 s) fire: only the
    /// header deadline closes it. Without the watchdog the whole header (about 8 s) is sent.
    @Test func aSlowHeaderIsCutOffAtTheDeadlineWhileOthersAreAnswered() async throws {
        let (server, port, responder) = try Self.server(HTTPServerOptions(headerTimeoutSeconds: 1))
        defer { Self.stopOffPool(server) }
        let header = "GET /slow HTTP/1.1\r\nHost: t\r\nX-Pad: \(String(repeating: "p", count: 150))\r\n\r\n"
        let slow = StartedOffPool { try RawHTTPClient.dribble(header, port: port, chunk: 4, interval: 0.2) }
        for _ in 0..<3 {
            #expect(try await RawHTTPClient.fetch(Self.get("/fine"), port: port).status == 200)
        }
        let seen = try await slow.value()
        #expect(seen.cutOff, "the slow header was sent whole in \(seen.seconds) s")
        #expect(seen.seconds >= 1 && seen.seconds < 6, "cut off after \(seen.seconds) s")
        #expect(seen.received.isEmpty)
        #expect(server.headerTimeouts == 1)
        #expect(responder.calls.withLock { $0 } == 3)
    }

    /// On a kept-alive connection the clock starts again once an answer is sent: a second
    /// request whose header dribbles is cut off too, after the first was answered.
    @Test func aSlowSecondHeaderOnAKeptAliveConnectionIsCutOff() async throws {
        let (server, port, _) = try Self.server(HTTPServerOptions(headerTimeoutSeconds: 1))
        defer { Self.stopOffPool(server) }
        let first = "GET /first HTTP/1.1\r\nHost: t\r\n\r\n"
        let second = "GET /second HTTP/1.1\r\nHost: t\r\nX-Pad: \(String(repeating: "p", count: 150))\r\n\r\n"
        let seen = try await offPool {
            try RawHTTPClient.dribble(prefix: first, second, port: port, chunk: 4, interval: 0.2)
        }
        #expect(seen.cutOff, "the slow second header was sent whole in \(seen.seconds) s")
        #expect(String(decoding: seen.received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(server.headerTimeouts == 1)
    }

    /// The deadline bounds the header only: an answer that takes longer than it still arrives.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "under ThreadSanitizer the full parallel run holds the cooperative pool for minutes (see StartedOffPool)")
    )
    func aSlowAnswerIsNotCutOffByTheHeaderDeadline() async throws {
        let gate = Gate()
        let (server, port, _) = try Self.server(HTTPServerOptions(headerTimeoutSeconds: 0.5), gate: gate)
        defer { Self.stopOffPool(server) }
        defer { gate.open() }
        let slow = StartedOffPool { try RawHTTPClient.send(Self.get("/slow"), port: port) }
        #expect(await gate.waitForArrivals(1))
        // Time itself is the condition here: three of the watchdog's deadlines pass.
        try await Task.sleep(for: .milliseconds(1500))
        gate.open()
        #expect(try await slow.value().status == 200)
        #expect(server.headerTimeouts == 0)
    }

    @Test func aPortInUseIsAnErrorNotACrash() async throws {
        let (server, port, _) = try Self.server()
        defer { Self.stopOffPool(server) }
        let second = HTTPServer(
            options: HTTPServerOptions(bind: HTTPBindAddress(host: "127.0.0.1", port: port)),
            responder: EchoResponder(gate: Gate()))
        #expect(throws: HTTPServerError.self) { try second.start() }
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1:8080", true), ("0.0.0.0:0", "0.0.0.0:0", false),
        ("[::1]:9000", "[::1]:9000", true), ("[::]:80", "[::]:80", false),
    ])
    func bindAddressesParse(text: String, printed: String, loopback: Bool) throws {
        let address = try #require(HTTPBindAddress(parsing: text))
        #expect(address.description == printed)
        #expect(address.isLoopback == loopback)
    }

    @Test(arguments: [
        "localhost:80", "127.0.0.1", "127.0.0.1:99999", "::1:80", "[::1]80", "1.2.3:80", "127.0.0.1:+1", "",
    ])
    func bindAddressesThatAreNotNumericAreRefused(text: String) {
        #expect(HTTPBindAddress(parsing: text) == nil)
    }
}
