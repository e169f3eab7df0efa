// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitServe

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit serve`: images on demand over HTTP, with imgproxy's URLs and signatures.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve", abstract: "Serve thumbnails on demand over HTTP (imgproxy's URLs).",
        discussion: """
            Answers GET /{signature}/{options}/plain/local:///{path}[@{ext}] with the thumbnail \
            that the options describe, rendered through the same pipeline as 'thumbkit thumb', \
            from a file under --root. Options follow imgproxy: rs:{fit|fill|fill-down|force|auto}:W:H, \
            w:, h:, g:{ce|no|so|ea|we|noea|nowe|soea|sowe|sm|fp:X:Y}, q:, dpr:, f:, bg:, pr:. \
            Signatures are imgproxy's: base64url(HMAC-SHA256(key, salt + path)) with --key and \
            --salt in hex (several pairs for rotation); without a key the server refuses to \
            start unless --insecure is given. GET /health answers 'ok' and GET /metrics answers in \
            Prometheus's text format. Once listening it prints one line on stdout, 'listening on \
            http://HOST:PORT' (with --json, {"listening":"http://HOST:PORT"}); SIGTERM or SIGINT stops accepting, finishes the requests in \
            flight (within 2 x --timeout) and exits 0. See docs/serve.md.

            Examples:
              thumbkit serve --root ~/Pictures --key "$KEY" --salt "$SALT"
              thumbkit serve --root TestImages --insecure --bind 127.0.0.1:0
            """,
        options: [
            bind, root, key, salt, insecure, presets, jobs, queue, maxClients, maxURLLength,
        ] + [headerTimeout, json] + LimitOptions.all)

    /// `--bind HOST:PORT`.
    static let bind: OptionKey<HTTPBindAddress> = .parsed(
        .value(
            "bind", valueName: "host:port", help: "Address to listen on (port 0: any free port).",
            default: "127.0.0.1:8080")
    ) { text throws(UsageError) in
        guard let address = HTTPBindAddress(parsing: text) else {
            throw .invalidValue(option: "--bind", value: text, reason: "expected HOST:PORT, such as 127.0.0.1:8080")
        }
        return address
    }
    /// `--root DIR`.
    static let root: OptionKey<String?> = .text(
        "root", valueName: "dir", defaultHelp: "no local sources",
        help: "Folder that local:/// sources are read from; no path leaves it.")
    /// `--key HEX`, repeatable.
    static let key: OptionKey<[String]> = .repeated(
        "key", valueName: "hex", help: "Signing key in hex (with a --salt each; several for rotation).")
    /// `--salt HEX`, repeatable.
    static let salt: OptionKey<[String]> = .repeated("salt", valueName: "hex", help: "Signing salt in hex.")
    /// `--insecure`.
    static let insecure: OptionKey<Bool> = .flag(
        "insecure", help: "Serve without signatures (any first path segment is accepted).")
    /// `--presets FILE`.
    static let presets: OptionKey<String?> = .text(
        "presets", valueName: "file", help: "imgproxy presets, one 'name=options' per line (at most 1 MiB).")
    /// `-j N`.
    static let jobs = CommonOptions.jobs("Renders at once.")
    /// `--queue N`.
    static let queue: OptionKey<Int> = .integer(
        "queue", in: 0...100_000, default: 64, help: "Renders allowed to wait; beyond, 429.")
    /// `--max-clients N`.
    static let maxClients: OptionKey<Int> = .integer(
        "max-clients", in: 1...100_000, default: 256, help: "Connections at once (/health and /metrics have spares).")
    /// `--max-url-length N`.
    static let maxURLLength: OptionKey<Int> = .integer(
        "max-url-length", in: 256...65_536, default: 8192, help: "Longest request URL; beyond, 414.")

    /// `--header-timeout SECONDS`.
    static let headerTimeout: OptionKey<Double> = .number(
        "header-timeout", valueName: "seconds", in: 0.1...3600, default: 10,
        help: "Close a connection whose request header takes longer.")
    /// `--json`.
    static let json: OptionKey<Bool> = .flag(
        "json", help: "Print the listening line as JSON: {\"listening\":\"http://HOST:PORT\"}.")

    static func validate(_ arguments: ParsedArguments) throws(UsageError) {
        _ = try signer(arguments)
    }

    /// The signer from `--key`/`--salt`, refusing to run unsigned unless `--insecure`. The
    /// messages never quote a key or a salt.
    static func signer(_ arguments: ParsedArguments) throws(UsageError) -> ImgproxySigner {
        let keys = try arguments[key]
        let salts = try arguments[salt]
        guard keys.count == salts.count else {
            throw .validationFailed("give one --salt for each --key (\(keys.count) keys, \(salts.count) salts)")
        }
        let isInsecure = try arguments[insecure]
        if keys.isEmpty && !isInsecure {
            throw .validationFailed("no --key and --salt: give them, or --insecure to serve unsigned URLs")
        }
        if !keys.isEmpty && isInsecure {
            throw .validationFailed("--insecure and --key exclude each other")
        }
        do {
            return try ImgproxySigner(pairs: zip(keys, salts).map { (key: $0, salt: $1) })
        } catch {
            throw .validationFailed("--key and --salt must be even-length hex (their values are not shown)")
        }
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let limits = try LimitOptions.limits(arguments)
        let signer = try signer(arguments)
        var sourceRoot: SourceRoot?
        if let path = try arguments[root] {
            do {
                sourceRoot = try SourceRoot(path)
            } catch {
                switch error {
                case .unusable(let reason): context.printError("--root " + reason)
                case .notFound: context.printError("--root \(Terminal.oneLine(path)): no such folder")
                }
                return .failure
            }
        }
        var presetTable = ImgproxyPresets()
        if let file = try arguments[presets] {
            do {
                presetTable = try ImgproxyPresets(contentsOf: file)
            } catch {
                context.printError("\(error)")
                return .failure
            }
        }
        let metrics = ServeMetrics()
        let pool = RenderPool(workers: try arguments[jobs], queueLimit: try arguments[queue])
        let images = ImageService(
            root: sourceRoot, signer: signer,
            parser: ImgproxyURLParser(
                limits: ImgproxyLimits(maxDimension: limits.maxDimension), presets: presetTable),
            limits: limits, pool: pool, metrics: metrics)
        let shutdown = ShutdownFlag()
        let options = HTTPServerOptions(
            bind: try arguments[bind], maxClients: try arguments[maxClients],
            headerTimeoutSeconds: try arguments[headerTimeout], maxURLLength: try arguments[maxURLLength])
        let server = HTTPServer(
            options: options,
            responder: ServeResponder(images: images, metrics: metrics, pool: pool, isShuttingDown: shutdown.isSet),
            observer: metrics)
        let address: HTTPBindAddress
        do {
            address = try server.start()
        } catch {
            context.printError("cannot listen on \(try arguments[bind]): \(error)")
            return .failure
        }
        context.print(try arguments[json] ? listeningJSON("http://\(address)") : "listening on http://\(address)")
        await waitForSignal()
        shutdown.set()
        server.beginShutdown()
        let timeout = limits.maxSeconds > 0 ? limits.maxSeconds : 30
        let idle = await server.waitUntilIdle(timeout: .milliseconds(Int64(2 * timeout * 1000)))
        server.stop()
        pool.stop()
        if !idle { context.printError("stopped with requests still in flight after \(2 * timeout) s") }
        return .success
    }

    /// `{"listening":"URL"}`, the `--json` form of the listening line.
    static func listeningJSON(_ url: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(["listening": url])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Returns once SIGTERM or SIGINT arrives.
    private static func waitForSignal() async {
        let signals = Locked<[any DispatchSourceSignal]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Locked(false)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    if once.withLock({ done in
                        defer { done = true }; return !done
                    }) {
                        continuation.resume()
                    }
                }
                source.resume()
                signals.withLock { $0.append(source) }
            }
        }
        signals.withLock { $0.forEach { $0.cancel() } }
    }
}

/// Set once the server begins to shut down (then `/health` answers 503).
final class ShutdownFlag: Sendable {
    /// Guards the flag.
    private let flag = Locked(false)
    func set() { flag.withLock { $0 = true } }
    @Sendable func isSet() -> Bool { flag.withLock { $0 } }
}
