// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client over a plain socket, for tests that need exact bytes on the wire
/// (a raw target, an oversized header, a body the server must refuse). It sends `request` and
/// reads until the server closes the connection, so requests carry `Connection: close`.
enum RawHTTPClient {
    struct Answer {
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

    struct Failure: Error, CustomStringConvertible {
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
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return .success(socket)
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

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
