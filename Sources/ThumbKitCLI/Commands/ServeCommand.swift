// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitServe

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit serve` (`thumbkit serve run`): images on demand over HTTP, with imgproxy's URLs and
/// signatures, and with `--catalog` the catalog's web app.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "run", abstract: "Serve thumbnails on demand over HTTP (imgproxy's URLs), and the catalog's web app.",
        discussion: """
            Answers GET /{signature}/{options}/plain/local:///{path}[@{ext}] with the thumbnail \
            that the options describe, rendered through the same pipeline as 'thumbkit thumb', \
            from a file under --root. Options follow imgproxy: rs:{fit|fill|fill-down|force|auto}:W:H, \
            w:, h:, g:{ce|no|so|ea|we|noea|nowe|soea|sowe|sm|fp:X:Y}, q:, dpr:, f:, bg:, pr:. \
            Signatures are imgproxy's: base64url(HMAC-SHA256(key, salt + path)) with --key and \
            --salt in hex (several pairs for rotation), or from --key-file (a KEY:SALT line per \
            pair, which keeps them off the command line); without a key the server refuses to \
            start unless --insecure is given. GET /health answers 'ok' and GET /metrics answers in \
            Prometheus's text format. Once listening it prints one line on stdout, 'listening on \
            http://HOST:PORT' (with --json, {"listening":"http://HOST:PORT"}); SIGTERM or SIGINT stops accepting, finishes the requests in \
            flight (within 2 x --timeout) and exits 0. See docs/serve.md.

            With --catalog, / is the catalog's web app (Scary Bugs and Food, from the same \
            templates as 'thumbkit site', pictures from --out), and catalog:///bugs/ID/list[@2x] \
            sources are served; no --key is needed then (imgproxy URLs are refused unless \
            signed). Reading needs no login; editing is off unless --edit-password-file names a \
            file holding a line made by 'thumbkit serve hash-password'. Uploaded pictures go to \
            --uploads. The server builds changed records with worker lanes of its own (-j of \
            them) unless --no-worker is given.

            Examples:
              thumbkit serve --root ~/Pictures --key-file /etc/thumbkit/keys
              thumbkit serve --root TestImages --insecure --bind 127.0.0.1:0
              thumbkit serve --catalog thumbkit.sqlite --out thumbkit-out --edit-password-file pw.txt
            """,
        options: [
            bind, root, keyFile, key, salt, insecure, presets, jobs, queue, maxClients, maxURLLength,
        ] + [headerTimeout, json] + appOptions + LimitOptions.all)

    // MARK: The catalog's web app (--catalog and its companions)

    /// `--catalog PATH|URL`: serve this catalog's web app and `catalog:///` sources.
    static let catalog: OptionKey<String?> = .text(
        "catalog", valueName: "path|url", defaultHelp: "no web app",
        help: "Serve the web app and catalog:/// sources of this catalog: " + CatalogOptions.catalogHelp + ".")
    /// `--out DIR`: the catalog's output folder.
    static let out: OptionKey<String> = .text(
        "out", valueName: "dir", default: "./thumbkit-out", help: "The catalog's output folder (built images).")
    /// `--uploads DIR`: where uploaded pictures are kept.
    static let uploads: OptionKey<String> = .text(
        "uploads", valueName: "dir", default: "./thumbkit-uploads",
        help: "Where pictures uploaded in the web app are kept (outside --out).")
    /// `--edit-password-file FILE`: turns editing on.
    static let editPasswordFile: OptionKey<String?> = .text(
        "edit-password-file", valueName: "file", defaultHelp: "editing off",
        help: "A file holding the line 'thumbkit serve hash-password' printed; editing needs that password.")
    /// `--no-worker`: build nothing here.
    static let noWorker: OptionKey<Bool> = .flag(
        "no-worker", help: "Run no build lanes in the server (separate 'thumbkit worker' processes build).")
    /// `--trusted-proxy ADDR`, repeatable.
    static let trustedProxy: OptionKey<[String]> = .repeated(
        "trusted-proxy", valueName: "addr",
        help: "A proxy whose X-Forwarded-Proto and X-Forwarded-For are believed, besides loopback.")
    /// `--max-upload BYTES`: the body limit.
    static let maxUpload: OptionKey<Int> = .integer(
        "max-upload", in: 1024...1_073_741_824, default: 32 << 20,
        help: "Largest request body (an upload) in bytes; beyond, 413 before the body is read.")
    /// The options of the web app, together.
    static let appOptions: [any OptionDeclaration] = [
        catalog, out, uploads, editPasswordFile, noWorker, trustedProxy, maxUpload,
    ]

    /// The edit password's hash from `--edit-password-file`, or nil. Never quotes the file's content.
    static func passwordHash(_ arguments: ParsedArguments) throws(UsageError) -> PasswordHash? {
        guard let file = try arguments[editPasswordFile] else { return nil }
        guard let bytes = try? FileIO.read(file, maxBytes: 4096),
            let hash = PasswordHash(parsing: String(decoding: bytes, as: UTF8.self))
        else {
            throw .validationFailed(
                "--edit-password-file \(Terminal.oneLine(file)): not a line made by 'thumbkit serve hash-password'")
        }
        return hash
    }

    /// The web app, the catalog:/// sources and (unless --no-worker) the build lanes, for `--catalog`,
    /// with the store they share (closed when the server has stopped).
    static func webApp(_ arguments: ParsedArguments, limits: ImageLimits, context: CommandContext) throws -> (
        app: WebApp, source: CatalogImageSource, lanes: CatalogBuildLanes?, store: CatalogStore
    )? {
        guard let value = try arguments[catalog] else { return nil }
        let store = try CatalogOptions.openStore(catalog: value, mustExist: true)
        let outputDirectory = try arguments[out]
        var lanes: CatalogBuildLanes?
        if !(try arguments[noWorker]) {
            let made = try CatalogBuildLanes(
                store: store, outputDirectory: outputDirectory, lanes: try arguments[jobs], limits: limits,
                log: { context.printError($0) })
            if let refusal = try made.start() { throw CatalogError.io(path: outputDirectory, reason: refusal) }
            lanes = made
        }
        let app = WebApp(
            store: store,
            options: WebApp.Options(
                outputDirectory: outputDirectory, uploadDirectory: try arguments[uploads],
                password: try passwordHash(arguments), limits: limits,
                trustedProxies: Set(["127.0.0.1", "::1"] + (try arguments[trustedProxy]))),
            onChange: { [lanes] in lanes?.nudge() })
        return (app, CatalogImageSource(store: store), lanes, store)
    }

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
    /// `--key-file FILE`.
    static let keyFile: OptionKey<String?> = .text(
        "key-file", valueName: "file", defaultHelp: "none",
        help: "Signing pairs, one KEY:SALT line each in hex (kept off the command line, unlike --key).")
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
        _ = try passwordHash(arguments)
    }

    /// The signer from `--key`/`--salt`, refusing to run unsigned unless `--insecure`. The
    /// messages never quote a key or a salt.
    static func signer(_ arguments: ParsedArguments) throws(UsageError) -> ImgproxySigner {
        var keys = try arguments[key]
        var salts = try arguments[salt]
        guard keys.count == salts.count else {
            throw .validationFailed("give one --salt for each --key (\(keys.count) keys, \(salts.count) salts)")
        }
        if let file = try arguments[keyFile] {
            do {
                for pair in try ImgproxyKeyFile.pairs(contentsOf: file) {
                    keys.append(pair.key)
                    salts.append(pair.salt)
                }
            } catch {
                throw .validationFailed("--key-file \(Terminal.oneLine(error.description))")
            }
        }
        let isInsecure = try arguments[insecure]
        let servesCatalog = try arguments[catalog] != nil
        if keys.isEmpty && !isInsecure && servesCatalog {
            // The web app alone: image URLs need a signature no one can make.
            guard let key = SecureRandom.bytes(32), let salt = SecureRandom.bytes(16) else {
                throw .validationFailed("no random bytes for the image URL key")
            }
            let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
            return try! ImgproxySigner(pairs: [(key: hex(key), salt: hex(salt))])
        }
        if keys.isEmpty && !isInsecure {
            throw .validationFailed(
                "no --key-file (or --key and --salt): give one, or --insecure to serve unsigned URLs")
        }
        if !keys.isEmpty && isInsecure {
            throw .validationFailed("--insecure and --key or --key-file exclude each other")
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
        if !(try arguments[key]).isEmpty {
            context.printError(
                "warning: a --key on the command line can be read by every user of this machine "
                    + "(/proc/PID/cmdline); give it with --key-file")
        }
        if let file = try arguments[keyFile], ImgproxyKeyFile.isReadableByOthers(file) {
            context.printError("warning: --key-file \(Terminal.oneLine(file)) can be read by every user (chmod 600 it)")
        }
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
        let app = try webApp(arguments, limits: limits, context: context)
        let pool = RenderPool(workers: try arguments[jobs], queueLimit: try arguments[queue])
        let images = ImageService(
            root: sourceRoot, signer: signer,
            parser: ImgproxyURLParser(
                limits: ImgproxyLimits(maxDimension: limits.maxDimension), presets: presetTable),
            limits: limits, pool: pool, metrics: metrics, catalog: app?.source)
        let shutdown = ShutdownFlag()
        let options = HTTPServerOptions(
            bind: try arguments[bind], maxClients: try arguments[maxClients],
            headerTimeoutSeconds: try arguments[headerTimeout], maxURLLength: try arguments[maxURLLength],
            maxBodyBytes: try arguments[maxUpload])
        let server = HTTPServer(
            options: options,
            responder: ServeResponder(
                images: images, metrics: metrics, pool: pool, app: app?.app, isShuttingDown: shutdown.isSet),
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
        if let lanes = app?.lanes {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    _ = lanes.stop()
                    done.resume()
                }
            }
        }
        app?.store.close()
        if !idle { context.printError("stopped with requests still in flight after \(2 * timeout) s") }
        return .success
    }

    /// `{"listening":"URL"}`, the `--json` form of the listening line.
    static func listeningJSON(_ url: String) -> String {
        JSONLine.string(["listening": url]) ?? ""
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
