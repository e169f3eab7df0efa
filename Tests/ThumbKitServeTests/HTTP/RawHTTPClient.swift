// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client over a plain socket, for tests that need exact bytes on the wire
/// (a raw target, an oversized header, a body the server must refuse). It sends `request` and
/// reads until the server closes the connection, so requests carry `Connection: close`. Its
/// calls block: from an async test, use `fetch`, which runs them off the cooperative pool.
enum RawHTTPClient {
    struct Answer: Sendable {
        var status: Int
        var head: String
        var body: [UInt8]

        /// The first header field named `name` (any case).
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port`; the socket, or an errno.
    static func connect(port: UInt16) -> Result<Int32, Failure> {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return .failure(Failure(description: "socket: \(errno)")) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(socket)
            return .failure(Failure(description: String(cString: strerror(code))))
        }
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return .success(socket)
    }

    /// `send` on a thread of its own, so the awaiting test blocks no cooperative thread.
    static func fetch(_ request: String, port: UInt16) async throws -> Answer {
        try await offPool { try send(request, port: port) }
    }

    /// Sends `request` and returns the answer read up to the server's close.
    static func send(_ request: String, port: UInt16) throws -> Answer {
        try send(Array(request.utf8), port: port)
    }

    static func send(_ request: [UInt8], port: UInt16) throws -> Answer {
        let socket = try connect(port: port).get()
        defer { close(socket) }
        var offset = 0
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The server may answer and close before it has read everything (a refused body).
            guard sent > 0 else { break }
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        guard let end = find([13, 10, 13, 10], in: received) else {
            throw Failure(description: "no complete answer (\(received.count) bytes)")
        }
        let head = String(decoding: received[..<end], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, head: head, body: Array(received[(end + 4)...]))
    }

    /// What a slow client saw: whether the server closed the connection before the whole
    /// request was sent, after how many seconds, and the bytes it answered meanwhile.
    struct Dribble: Sendable {
        var cutOff: Bool
        var seconds: Double
        var received: [UInt8]
    }

    /// Sends `prefix` at once, then `slow` `chunk` bytes at a time every `interval` seconds,
    /// looking before each piece whether the server has closed the connection. Blocks: run it
    /// off the cooperative pool.
    static func dribble(
        prefix: String = "", _ slow: String, port: UInt16, chunk: Int, interval: Double
    ) throws -> Dribble {
        let socket = try connect(port: port).get()
        defer { close(socket) }
        let start = Date()
        var received: [UInt8] = []
        /// Reads what has arrived without waiting; false once the server has closed.
        func open() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes {
                    recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    received += buffer[0..<count]
                    continue
                }
                return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            }
        }
        func send(_ bytes: ArraySlice<UInt8>) -> Bool {
            bytes.isEmpty
                || bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    == bytes.count
        }
        let bytes = Array(slow.utf8)
        guard send(Array(prefix.utf8)[...]) else {
            return Dribble(cutOff: true, seconds: Date().timeIntervalSince(start), received: received)
        }
        var offset = 0
        while offset < bytes.count {
            Thread.sleep(forTimeInterval: interval)
            guard open(), send(bytes[offset..<min(offset + chunk, bytes.count)]) else {
                return Dribble(cutOff: true, seconds: Date().timeIntervalSince(start), received: received)
            }
            offset += chunk
        }
        return Dribble(cutOff: !open(), seconds: Date().timeIntervalSince(start), received: received)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
