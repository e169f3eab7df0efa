// SPDX-License-Identifier: Apache-2.0
import CThumbKitServe
import Foundation
import ThumbKit

/// The part of ``HTTPServer`` that libmicrohttpd calls into, on its pool's threads: it checks
/// the limits, reads the body, runs the responder with the connection suspended, and queues
/// the answer.
final class HTTPServerCore: Sendable {
    private struct Counts {
        /// Requests between their request line and their completion.
        var inFlight = 0
        /// Of those, the ones holding one of `maxClients`' places.
        var places = 0
        var shuttingDown = false
    }

    let options: HTTPServerOptions
    private let responder: any HTTPResponding
    private let observer: (any HTTPObserving)?
    /// Guards the request counts and the shutdown flag.
    private let counts = Locked(Counts())
    /// Entered while a responder's task may still resume its connection: the daemon must not
    /// stop (and free the connection) before every one has left.
    let responders = DispatchGroup()
    /// Runs the responders' tasks on threads of its own, off Swift's cooperative pool and
    /// Dispatch's global queues.
    let executor = ResponderExecutor(threads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))
    /// Closes the connections whose header takes too long.
    let headerDeadline: HeaderDeadline

    init(options: HTTPServerOptions, responder: any HTTPResponding, observer: (any HTTPObserving)?) {
        self.options = options
        self.headerDeadline = HeaderDeadline(seconds: options.headerTimeoutSeconds)
        self.responder = responder
        self.observer = observer
    }

    deinit { executor.stop() }

    var inFlight: Int { counts.withLock { $0.inFlight } }
    var isShuttingDown: Bool { counts.withLock { $0.shuttingDown } }

    func beginShutdown() { counts.withLock { $0.shuttingDown = true } }

    func opened() { counts.withLock { $0.inFlight += 1 } }

    func completed(_ exchange: HTTPExchange) {
        counts.withLock {
            $0.inFlight -= 1
            if exchange.holdsPlace { $0.places -= 1 }
        }
    }

    /// One call of libmicrohttpd's access handler. The first call for a request comes once its
    /// header is in; then one call per piece of body; then a call with no data, which starts the
    /// responder; then, once the responder has resumed the connection, a call that answers.
    func handle(
        _ connection: OpaquePointer, _ exchange: HTTPExchange, method: String, data: UnsafeRawBufferPointer?,
        size: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        switch exchange.phase {
        case .header:
            headerDeadline.headerIn(connection)
            exchange.phase = .body
            if let refusal = refusal(connection, exchange) { return queue(refusal, on: connection, for: exchange) }
            return MHD_Result.YES
        case .body:
            if size.pointee > 0, let data {
                guard exchange.body.count + data.count <= options.maxBodyBytes else {
                    // An undeclared (chunked) body too large: answered once it has ended.
                    exchange.phase = .discarding
                    exchange.discarded = exchange.body.count + data.count
                    exchange.body = []
                    size.pointee = 0
                    return MHD_Result.YES
                }
                exchange.body.append(contentsOf: data)
                size.pointee = 0
                return MHD_Result.YES
            }
            let request = HTTPRequest(
                method: method, target: exchange.target, headers: exchange.headers, body: exchange.body,
                peer: HTTPBindAddress.host(of: tk_http_client_address(connection)))
            exchange.phase = .responding
            respond(to: request, on: ConnectionHandle(pointer: connection), for: exchange)
            return MHD_Result.YES
        case .discarding:
            guard size.pointee > 0 else {
                var tooLarge = HTTPResponse.text(.payloadTooLarge)
                tooLarge.headers.append(("Connection", "close"))
                return queue(tooLarge, on: connection, for: exchange)
            }
            exchange.discarded += size.pointee
            size.pointee = 0
            // A client that goes on and on is not worth an answer.
            return exchange.discarded <= 2 * max(options.maxBodyBytes, 64 * 1024) ? MHD_Result.YES : MHD_Result.NO
        case .responding:
            // Resumed: the responder has answered.
            guard let response = exchange.answer.withLock({ $0 }) else { return MHD_Result.NO }
            return queue(response, on: connection, for: exchange)
        case .answered:
            size.pointee = 0
            return MHD_Result.YES
        }
    }

    /// The answer to a request that must not go further: too long a target or header, too
    /// large a declared body, or no place left. Nil when it may go on.
    private func refusal(_ connection: OpaquePointer, _ exchange: HTTPExchange) -> HTTPResponse? {
        if exchange.target.utf8.count > options.maxURLLength { return .text(.uriTooLong) }
        let headers = Self.headers(connection)
        exchange.headers = headers
        if headers.byteCount > options.maxHeaderBytes { return .text(.requestHeaderFieldsTooLarge) }
        if let length = headers["Content-Length"] {
            guard let bytes = Int(length.trimmingCharacters(in: .whitespaces)), bytes >= 0 else {
                return .text(.badRequest, "bad Content-Length")
            }
            if bytes > options.maxBodyBytes { return .text(.payloadTooLarge) }
        }
        let path = HTTPRequest(method: "", target: exchange.target).path
        guard !options.reservedPaths.contains(path) else { return nil }
        let placed = counts.withLock { counts -> Bool in
            guard counts.places < options.maxClients else { return false }
            counts.places += 1
            return true
        }
        guard placed else {
            var busy = HTTPResponse.text(.serviceUnavailable, "server busy; try again")
            busy.headers.append(("Retry-After", "1"))
            return busy
        }
        exchange.holdsPlace = true
        return nil
    }

    /// Suspends the connection, runs the responder in a task, and resumes the connection with
    /// its answer; libmicrohttpd then calls `handle` again, which queues it. No server thread
    /// waits while a render runs.
    private func respond(to request: HTTPRequest, on connection: ConnectionHandle, for exchange: HTTPExchange) {
        MHD_suspend_connection(connection.pointer)
        responders.enter()
        Task(executorPreference: executor) { [responder, responders] in
            let response = await responder.respond(to: request)
            exchange.answer.withLock { $0 = response }
            MHD_resume_connection(connection.pointer)
            responders.leave()
        }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, for exchange: HTTPExchange) -> MHD_Result
    {
        exchange.phase = .answered
        let body = response.body
        let made = body.withUnsafeBytes {
            MHD_create_response_from_buffer(
                body.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { return MHD_Result.NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            // libmicrohttpd refuses a field with CR or LF, so no answer can be split.
            _ = MHD_add_response_header(made, name, value)
        }
        if isShuttingDown { _ = MHD_add_response_header(made, "Connection", "close") }
        let queued = MHD_queue_response(connection, UInt32(response.status.rawValue), made)
        observer?.observe(status: response.status, seconds: exchange.seconds)
        return queued
    }

    /// The request's header fields, in order.
    static func headers(_ connection: OpaquePointer) -> HTTPHeaders {
        final class Box {
            var headers = HTTPHeaders()
        }
        let box = Box()
        _ = withExtendedLifetime(box) {
            MHD_get_connection_values(
                connection, .HEADER_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return MHD_Result.YES }
                    let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
                    box.headers.append(String(cString: key), value.map { String(cString: $0) } ?? "")
                    return MHD_Result.YES
                }, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.headers
    }
}
