// SPDX-License-Identifier: Apache-2.0
import CThumbKitServe
import Foundation
import ThumbKit

/// An HTTP/1.1 server with keep-alive on libmicrohttpd: a small pool of its threads polls up to
/// `maxClients + reservedConnections` connections with `poll`. Each complete request suspends
/// its connection and is answered by the ``HTTPResponding`` in a task, which resumes the
/// connection; so no server thread waits for a render, and renders (on the ``RenderPool``)
/// never run on a server thread.
///
/// The limits in ``HTTPServerOptions`` are checked before the work they bound. Shutdown is
/// graceful: ``beginShutdown()`` stops accepting, ``waitUntilIdle(timeout:)`` waits for the
/// requests in flight, ``stop()`` closes what is left.
package final class HTTPServer: Sendable {
    package let options: HTTPServerOptions
    private let core: HTTPServerCore
    /// Guards the running daemon (nil before `start` and after `stop`).
    private let daemon = Locked<DaemonHandle?>(nil)

    package init(options: HTTPServerOptions, responder: any HTTPResponding, observer: (any HTTPObserving)? = nil) {
        self.options = options
        self.core = HTTPServerCore(options: options, responder: responder, observer: observer)
    }

    deinit { stop() }

    /// True once ``beginShutdown()`` has run.
    package var isShuttingDown: Bool { core.isShuttingDown }

    /// Requests between their request line and their completion.
    package var requestsInFlight: Int { core.inFlight }

    /// Connections closed so far because their request header was not in within
    /// `options.headerTimeoutSeconds`.
    package var headerTimeouts: Int { core.headerDeadline.cutOff }

    /// Starts listening and returns the address, with the port chosen when `bind.port` was 0.
    @discardableResult
    package func start() throws(HTTPServerError) -> HTTPBindAddress {
        try daemon.withLock { (running: inout DaemonHandle?) throws(HTTPServerError) -> HTTPBindAddress in
            guard running == nil else { throw .alreadyStarted }
            // libmicrohttpd is opened here, not at start-up (http_shim.c).
            var reason = [CChar](repeating: 0, count: 256)
            guard tk_http_ready(&reason, UInt(reason.count)) == 0 else {
                let bytes = reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                throw .cannotListen(String(decoding: bytes, as: UTF8.self))
            }
            let flags =
                MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
                | (options.bind.isIPv6 ? MHD_USE_IPv6.rawValue : 0)
            let context = Unmanaged.passUnretained(core).toOpaque()
            errno = 0
            let started: OpaquePointer? = options.bind.withSocketAddress { address in
                guard let address else { return nil }
                let items: [MHD_OptionItem] = [
                    MHD_OptionItem(
                        option: .CONNECTION_LIMIT,
                        value: options.maxClients + options.reservedConnections, ptr_value: nil),
                    MHD_OptionItem(option: .THREAD_POOL_SIZE, value: options.serverThreads, ptr_value: nil),
                    MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: options.idleTimeoutSeconds, ptr_value: nil),
                    MHD_OptionItem(
                        option: .CONNECTION_MEMORY_LIMIT, value: options.connectionMemoryBytes, ptr_value: nil),
                    MHD_OptionItem(
                        option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: address)),
                    MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
                ]
                return items.withUnsafeBufferPointer {
                    tk_http_start(
                        flags, httpAccess, context, httpCompleted, context, httpRequestLine, context,
                        httpConnectionNotice, context, $0.baseAddress)
                }
            }
            guard let started else {
                let code = errno
                throw .cannotListen(code == 0 ? "libmicrohttpd refused the options" : String(cString: strerror(code)))
            }
            running = DaemonHandle(pointer: started)
            core.headerDeadline.start()
            var bound = options.bind
            bound.port = tk_http_bound_port(started)
            return bound
        }
    }

    /// Stops accepting connections (the listening socket is closed, so a new client is refused
    /// at once) and marks every later answer `Connection: close`.
    package func beginShutdown() {
        core.beginShutdown()
        daemon.withLock { running in running?.quiesce() }
    }

    /// Waits until no request is in flight, or `timeout` has passed; true when idle.
    package func waitUntilIdle(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while core.inFlight > 0 {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Stops accepting, waits for the responders still working (each is bounded by its own
    /// deadline), then closes every connection and ends the server's threads. Safe to call more
    /// than once.
    package func stop() {
        let running = daemon.withLock { running -> DaemonHandle? in
            defer { running = nil }
            return running
        }
        guard var running else { return }
        core.beginShutdown()
        running.quiesce()
        core.responders.wait()
        core.headerDeadline.stop()
        MHD_stop_daemon(running.pointer)
        if running.listener >= 0 { close(running.listener) }
        core.executor.stop()
    }
}

/// Why the server could not start.
package enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case alreadyStarted
    case cannotListen(String)

    package var description: String {
        switch self {
        case .alreadyStarted: "the server is already running"
        case .cannotListen(let reason): reason
        }
    }
}

/// The running daemon. `@unchecked Sendable`: a pointer that libmicrohttpd's calls take from
/// any thread; `HTTPServer` uses it only under its lock.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The listening socket once quiesced, or -1. libmicrohttpd hands it over, but its threads
    /// may still use it: it may only be closed after `MHD_stop_daemon`.
    var listener: Int32 = -1

    /// Stops accepting: libmicrohttpd stops polling the listening socket, and `shutdown`
    /// (on Linux, for a listening socket) ends the listening, so a new client is refused at
    /// once instead of waiting in the backlog; the socket stays open until the daemon stops.
    mutating func quiesce() {
        guard listener < 0 else { return }
        let socket = MHD_quiesce_daemon(pointer)
        guard socket >= 0 else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        listener = socket
    }
}

// libmicrohttpd's callbacks: each finds the server's core in its `cls` argument.

/// The request line has arrived: make the request's exchange from the target as sent.
private let httpRequestLine: tk_http_uri_callback = { cls, uri, _ in
    guard let cls, let uri else { return nil }
    let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
    let exchange = HTTPExchange(target: String(cString: uri))
    core.opened()
    return Unmanaged.passRetained(exchange).toOpaque()
}

private let httpAccess: MHD_AccessHandlerCallback = { cls, connection, _, method, _, data, size, context in
    guard let cls, let connection, let method, let size, let context, let raw = context.pointee else {
        return MHD_Result.NO
    }
    let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(raw).takeUnretainedValue()
    let body = data.map { UnsafeRawBufferPointer(start: $0, count: size.pointee) }
    return core.handle(connection, exchange, method: String(cString: method), data: body, size: size)
}

private let httpCompleted: MHD_RequestCompletedCallback = { cls, connection, context, _ in
    guard let cls else { return }
    let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
    if let connection { core.headerDeadline.requestCompleted(connection) }
    guard let context, let raw = context.pointee else { return }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(raw).takeRetainedValue()
    context.pointee = nil
    core.completed(exchange)
}

/// A connection opened or is about to close: its header clock starts, or is forgotten.
private let httpConnectionNotice: MHD_NotifyConnectionCallback = { cls, connection, _, notice in
    guard let cls, let connection else { return }
    let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
    if notice == .CONNECTION_NOTIFY_STARTED {
        core.headerDeadline.opened(connection)
    } else {
        core.headerDeadline.closed(connection)
    }
}
