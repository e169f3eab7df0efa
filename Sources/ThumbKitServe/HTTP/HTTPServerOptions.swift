// SPDX-License-Identifier: Apache-2.0
/// The server's address and limits. Every limit is enforced before the work it bounds: the
/// URL and header sizes before a responder runs, the body size before the body is read (from
/// `Content-Length`) and while it is read (chunked bodies), the connection count at `accept`,
/// the header's time while it is read.
package struct HTTPServerOptions: Sendable {
    /// Where to listen; loopback unless the operator says otherwise.
    package var bind: HTTPBindAddress
    /// Requests served at once, other than `/health` and `/metrics`; beyond, 503.
    package var maxClients: Int
    /// Connections kept for `/health` and `/metrics` beyond `maxClients`, so a monitor still
    /// gets an answer from a server that is full.
    package var reservedConnections: Int
    /// Seconds a connection may stay idle (no byte read or written) before it is closed.
    package var idleTimeoutSeconds: Int
    /// Seconds a request's header may take, from the connection's opening (or the previous
    /// answer, on a kept-alive connection) to its end; beyond, the connection is closed. The
    /// idle timeout alone would let a client that sends a byte now and then hold it forever.
    package var headerTimeoutSeconds: Double
    /// The longest request target; beyond, 414.
    package var maxURLLength: Int
    /// The most header bytes; beyond, 431.
    package var maxHeaderBytes: Int
    /// The longest body; beyond, 413.
    package var maxBodyBytes: Int
    /// libmicrohttpd's threads, which only move bytes; renders run elsewhere.
    package var serverThreads: Int
    /// Paths always served, even when `maxClients` requests are in flight.
    package var reservedPaths: Set<String>

    package init(
        bind: HTTPBindAddress = HTTPBindAddress(host: "127.0.0.1", port: 8080), maxClients: Int = 64,
        reservedConnections: Int = 4, idleTimeoutSeconds: Int = 30, headerTimeoutSeconds: Double = 10,
        maxURLLength: Int = 8192,
        maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1 << 20,
        reservedPaths: Set<String> = ["/health", "/metrics"],
        serverThreads: Int = 2
    ) {
        self.serverThreads = max(1, serverThreads)
        self.bind = bind
        self.maxClients = max(1, maxClients)
        self.reservedConnections = max(0, reservedConnections)
        self.idleTimeoutSeconds = max(1, idleTimeoutSeconds)
        self.headerTimeoutSeconds = max(0.1, headerTimeoutSeconds)
        self.maxURLLength = max(256, maxURLLength)
        self.maxHeaderBytes = max(1024, maxHeaderBytes)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.reservedPaths = reservedPaths
    }

    /// libmicrohttpd's per-connection memory pool: it holds the request line and the header
    /// while they are parsed, so it is sized from the two limits; a request line beyond it
    /// gets libmicrohttpd's own 414, before any code of ours runs.
    var connectionMemoryBytes: Int { max(32 * 1024, maxURLLength + maxHeaderBytes + 8 * 1024) }
}
