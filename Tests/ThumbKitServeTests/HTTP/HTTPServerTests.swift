// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ThumbKit

@testable import ThumbKitServe

/// The HTTP layer on its own, driven with exact bytes over a socket.
// Disabled until rewritten async: these tests block Swift's cooperative threads with
// synchronous clients (curl, sockets, polls), and on a 2-core machine that starves the whole
// test run. The server itself answered by hand (`thumbkit serve` with curl); see issue 28's note.
@Suite(.disabled("blocking clients starve the cooperative pool; rewrite async (issue 28)"))
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
        /// Guards whether the gate is open, the tasks waiting at it, and how many arrived.
        private let state = Locked<(open: Bool, waiting: [CheckedContinuation<Void, Never>], arrived: Int)>(
            (false, [], 0))

        func pass() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state -> Bool in
                    state.arrived += 1
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
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

        var arrived: Int { state.withLock { $0.arrived } }

        /// Waits (up to 30 s) until `count` tasks have arrived.
        func waitForArrivals(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while arrived < count {
                guard Date() < deadline else { return false }
                usleep(5000)
            }
            return true
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

    static func get(_ target: String, headers: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: test\r\n\(headers)Connection: close\r\n\r\n"
    }

    @Test func theTargetReachesTheResponderExactlyAsSent() throws {
        let observer = Statuses()
        let (server, port, _) = try Self.server(observer: observer)
        defer { server.stop() }
        let answer = try RawHTTPClient.send(Self.get("/a%2Fb/../c%00?x=%20&y", headers: "X-TEST: one\r\n"), port: port)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "GET /a%2Fb/../c%00?x=%20&y one ")
        #expect(answer.header("content-length") == String(answer.body.count))
        #expect(observer.seen.withLock { $0 } == [200])
    }

    @Test func aPostBodyArrivesWhole() throws {
        let (server, port, _) = try Self.server()
        defer { server.stop() }
        let body = String(repeating: "b", count: 100_000)
        let answer = try RawHTTPClient.send(
            "POST /form HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
            port: port)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "POST /form - \(body)")
    }

    @Test func limitsAnswerBeforeTheResponderRuns() throws {
        let (server, port, responder) = try Self.server(
            HTTPServerOptions(maxURLLength: 1024, maxHeaderBytes: 2048, maxBodyBytes: 1000))
        defer { server.stop() }
        let long = "/" + String(repeating: "a", count: 1100)
        #expect(try RawHTTPClient.send(Self.get(long), port: port).status == 414)
        let header = "X-Big: " + String(repeating: "h", count: 3000) + "\r\n"
        #expect(try RawHTTPClient.send(Self.get("/", headers: header), port: port).status == 431)
        // Declared too large: refused from the header, before a byte of body is sent.
        let declared = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5000000\r\nConnection: close\r\n\r\n"
        #expect(try RawHTTPClient.send(declared, port: port).status == 413)
        // Chunked, so undeclared: refused once the body passes the limit.
        let chunk = String(repeating: "c", count: 600)
        let chunked =
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
        #expect(try RawHTTPClient.send(chunked, port: port).status == 413)
        #expect(
            try RawHTTPClient.send(
                "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: x\r\nConnection: close\r\n\r\n", port: port
            ).status == 400)
        #expect(responder.calls.withLock { $0 } == 0)
        #expect(try RawHTTPClient.send(Self.get("/fine"), port: port).status == 200)
    }

    @Test func aFullServerAnswers503WhileHealthStillAnswers() async throws {
        let gate = Gate()
        let (server, port, _) = try Self.server(HTTPServerOptions(maxClients: 2), gate: gate)
        defer { server.stop() }
        let slow = (0..<2).map { _ in
            Task.detached { try RawHTTPClient.send(Self.get("/slow"), port: port) }
        }
        #expect(gate.waitForArrivals(2))
        let busy = try RawHTTPClient.send(Self.get("/slow"), port: port)
        #expect(busy.status == 503)
        #expect(busy.header("retry-after") == "1")
        #expect(try RawHTTPClient.send(Self.get("/health"), port: port).status == 200)
        gate.open()
        for task in slow { #expect(try await task.value.status == 200) }
        #expect(try RawHTTPClient.send(Self.get("/slow"), port: port).status == 200)
    }

    @Test func shutdownFinishesWhatIsInFlightAndRefusesNewConnections() async throws {
        let gate = Gate()
        let (server, port, _) = try Self.server(gate: gate)
        defer { server.stop() }
        let slow = Task.detached { try RawHTTPClient.send(Self.get("/slow"), port: port) }
        #expect(gate.waitForArrivals(1))
        server.beginShutdown()
        #expect(server.isShuttingDown)
        guard case .failure = RawHTTPClient.connect(port: port) else {
            Issue.record("a new connection was accepted after shutdown began")
            return
        }
        #expect(await server.waitUntilIdle(timeout: .milliseconds(50)) == false)
        gate.open()
        let answer = try await slow.value
        #expect(answer.status == 200)
        #expect(answer.header("connection")?.lowercased() == "close")
        #expect(await server.waitUntilIdle(timeout: .seconds(30)))
    }

    @Test func aPortInUseIsAnErrorNotACrash() throws {
        let (server, port, _) = try Self.server()
        defer { server.stop() }
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
