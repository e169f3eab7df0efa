// SPDX-License-Identifier: Apache-2.0
/// What answers the server's requests. `respond` runs in a task of its own while the
/// connection's thread waits, so it may suspend (for a render on the ``RenderPool``, say) but
/// must not block a cooperative thread.
package protocol HTTPResponding: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// Told of every answer the server sends, with the seconds from the request line to the answer.
package protocol HTTPObserving: Sendable {
    func observe(status: HTTPStatus, seconds: Double)
}
