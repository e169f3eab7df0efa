// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitTestSupport

@testable import ThumbKitServe

/// A `thumbkit serve` in this process, on a free loopback port, over a temporary root of
/// generated pictures, signed with imgproxy's documented example key and salt; driven by `curl`,
/// off the cooperative pool.
final class ServeFixture: Sendable {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    let root: URL
    let signer: ImgproxySigner
    let pool: RenderPool
    let metrics = ServeMetrics()
    let server: HTTPServer
    let address: HTTPBindAddress

    /// One answer, as curl saw it.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    init(
        signed: Bool = true, limits: ImageLimits = ImageLimits(), workers: Int = 2, queue: Int = 8,
        maxClients: Int = 64
    ) throws {
        root = try TestBinary.temporaryDirectory("serve")
        try Data(GeneratedImages.jpeg(width: 640, height: 480, seed: 7)).write(
            to: root.appendingPathComponent("photo.jpg"))
        try Data(GeneratedImages.png(width: 300, height: 200, seed: 8)).write(
            to: root.appendingPathComponent("art.png"))
        try Data("not an image\n".utf8).write(to: root.appendingPathComponent("notes.jpg"))
        signer = try ImgproxySigner(pairs: signed ? [(key: Self.key, salt: Self.salt)] : [])
        pool = RenderPool(workers: workers, queueLimit: queue)
        let images = ImageService(
            root: try SourceRoot(root.path), signer: signer, parser: ImgproxyURLParser(), limits: limits, pool: pool,
            metrics: metrics)
        // Weak: the responder's closure must not keep the server alive (server → responder →
        // closure → server is a cycle that LeakSanitizer reports at exit).
        let serverBox = Locked(WeakServer())
        let made = HTTPServer(
            options: HTTPServerOptions(bind: HTTPBindAddress(host: "127.0.0.1", port: 0), maxClients: maxClients),
            responder: ServeResponder(
                images: images, metrics: metrics, pool: pool,
                isShuttingDown: { serverBox.withLock { $0.server?.isShuttingDown ?? false } }),
            observer: metrics)
        serverBox.withLock { $0.server = made }
        server = made
        address = try made.start()
    }

    deinit {
        // The folder goes now: a thread may not run before the test process exits.
        try? FileManager.default.removeItem(at: root)
        // Stopping on a thread of its own: `stop` waits for the responders still working, and
        // the last reference is usually dropped on a cooperative thread.
        let (server, pool) = (server, pool)
        Thread {
            server.stop()
            pool.stop()
        }.start()
    }

    /// A reference to the server that does not keep it alive.
    struct WeakServer: Sendable {
        weak var server: HTTPServer?
    }

    /// `/{signature}{path}` for `path` (`/rs:fill:88:88/plain/local:///photo.jpg`).
    func signed(_ path: String) -> String { "/" + signer.sign(path: path) + path }

    /// GET (or `method`) `target` with `headers`, by curl, waited for on threads of its own
    /// (never a cooperative one). A HEAD goes over a raw socket instead, read to the server's close: curl does not read a
    /// body after HEAD, so only that shows that none was sent.
    func request(_ target: String, method: String = "GET", headers: [String: String] = [:]) async throws -> Answer {
        if method == "HEAD" {
            let fields = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            let raw = try await RawHTTPClient.fetch(
                "HEAD \(target) HTTP/1.1\r\nHost: t\r\n\(fields)Connection: close\r\n\r\n", port: address.port)
            var fieldsSeen: [String: String] = [:]
            for line in raw.head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fieldsSeen[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            return Answer(status: raw.status, headers: fieldsSeen, body: raw.body)
        }
        let folder = try TestBinary.temporaryDirectory("curl")
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["-s", "-g", "--path-as-is", "-o", folder.path + "/body", "-D", folder.path + "/head"]
        arguments += ["-X", method]
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        arguments.append("http://\(address)\(target)")
        let run = try await TestBinary.runOffPool(executable: URL(fileURLWithPath: "/usr/bin/curl"), arguments)
        guard run.status == 0 else { throw CurlFailed(status: run.status, stderr: run.stderr) }
        return try await offPool { try Self.saved(in: folder) }
    }

    /// The answer curl saved in `folder`: the head (`-D head`) and the body (`-o body`).
    private static func saved(in folder: URL) throws -> Answer {
        let head = try String(contentsOf: folder.appendingPathComponent("head"), encoding: .utf8)
        let lines = head.split(separator: "\r\n").map(String.init)
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? Data(contentsOf: folder.appendingPathComponent("body"))).map { [UInt8]($0) } ?? []
        return Answer(status: status, headers: fields, body: body)
    }

    struct CurlFailed: Error {
        var status: Int32
        var stderr: String
    }
}
