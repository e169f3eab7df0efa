// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// One request's state between libmicrohttpd's calls: made when the request line arrives,
/// released when the request completes.
///
/// `@unchecked Sendable`: `phase`, `headers`, `body`, `discarded` and `holdsPlace` are touched only inside
/// libmicrohttpd's calls for this connection, which one thread of its pool makes one at a time;
/// the responder's task, on another thread, touches only `answer`, which is locked.
final class HTTPExchange: @unchecked Sendable {
    enum Phase {
        /// The request line and header have arrived; nothing is decided yet.
        case header
        /// Reading the body.
        case body
        /// The body passed the limit: what follows is read and dropped (up to as much again;
        /// beyond, the connection is closed), and 413 is answered once the request has ended.
        /// libmicrohttpd 0.9.75 takes no answer while a body is still coming.
        case discarding
        /// The connection is suspended while the responder works.
        case responding
        /// An answer is queued; further body bytes are dropped.
        case answered
    }

    let target: String
    let started = DispatchTime.now()
    var phase = Phase.header
    /// The header fields, read once when the header is in.
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// Body bytes dropped since the body passed the limit.
    var discarded = 0
    /// True when this request holds one of `maxClients`' places (false for reserved paths).
    var holdsPlace = false
    /// Guards the responder's answer, set on its task's thread and taken on the connection's.
    let answer = Locked<HTTPResponse?>(nil)

    init(target: String) {
        self.target = target
    }

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9 }
}

/// A connection handed to the responder's task, which resumes it. `@unchecked Sendable`:
/// libmicrohttpd allows `MHD_resume_connection` from any thread.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
