// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the server listens: a numeric IPv4 or IPv6 host and a port (0: any free port).
/// Written `127.0.0.1:8080` or `[::1]:8080`. Host names are refused: what a name resolves to
/// can change, and a server should know which interface it exposes.
package struct HTTPBindAddress: Sendable, Hashable, CustomStringConvertible {
    package var host: String
    package var port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[V6HOST]:PORT`; nil when either part is not numeric.
    package init?(parsing text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil }
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText) else {
            return nil
        }
        self.init(host: String(host), port: port)
        guard isIPv6 || Self.ipv4(String(host)) != nil else { return nil }
        guard !isIPv6 || Self.ipv6(String(host)) != nil else { return nil }
    }

    package var isIPv6: Bool { host.contains(":") }

    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// True for 127.0.0.0/8 and ::1: nothing off this machine can connect.
    package var isLoopback: Bool { isIPv6 ? host == "::1" : host.hasPrefix("127.") }

    /// Calls `body` with this address as a `sockaddr` (nil when the host does not parse).
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>?) -> T) -> T {
        if isIPv6 {
            guard var address = Self.ipv6(host) else { return body(nil) }
            address.sin6_port = port.bigEndian
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        guard var address = Self.ipv4(host) else { return body(nil) }
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    private static func ipv4(_ host: String) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return address
    }

    private static func ipv6(_ host: String) -> sockaddr_in6? {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return nil }
        return address
    }

    /// The numeric host of a peer's `sockaddr`, or "".
    static func host(of address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            guard inet_ntop(AF_INET, &copy.sin_addr, &text, socklen_t(text.count)) != nil else { return "" }
        case AF_INET6:
            var copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            guard inet_ntop(AF_INET6, &copy.sin6_addr, &text, socklen_t(text.count)) != nil else { return "" }
        default:
            return ""
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
