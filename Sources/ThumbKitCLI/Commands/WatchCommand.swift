// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitWatch

#if canImport(Glibc)
    import Glibc
#endif

/// `thumbkit watch`: a folder as an inbox for the catalog.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch", abstract: "Turn a folder into an inbox: dropped images become records with their outputs.",
        discussion: """
            DIR/bugs/<title>.<image> (png, jpg, jpeg, webp, heic, heif or avif) makes or updates \
            the bug with that title (its rating from \
            DIR/bugs/<title>.json, such as {"rating": 3.5}, when present); \
            DIR/foods/<category>/<name>.<image> makes or updates that food, and the category if \
            it is new. A file is taken once it has been closed or renamed in and its size and \
            modification time have not changed for --settle seconds; temporary names (dot-files, \
            *.part, *.tmp, *.crdownload) wait until renamed. Each file is processed once (its \
            SHA-256 is kept in the catalog); a file that fails is moved to DIR/.rejected/ beside \
            a .error.txt saying why. SIGINT or SIGTERM finishes the files in flight and exits 0.

            One line per event goes to stderr (JSON lines with --json); a summary goes to stdout \
            when the watcher stops.

            Examples:
              thumbkit watch inbox --catalog site.sqlite --out site-out
              thumbkit watch /mnt/share/inbox --poll 5 --move-done /mnt/share/done
              thumbkit watch inbox --once --settle 0
            """,
        positionals: [.required("dir", help: "The inbox folder.")],
        options: [CatalogOptions.catalog, CatalogOptions.out, CatalogOptions.recipes, settle, poll, jobs, moveDone]
            + LimitOptions.all + [once, json, crashAt])

    static let settle: OptionKey<Double> = .number(
        "settle", valueName: "seconds", in: 0...3600, default: 1,
        help: "How long a file must stay unchanged before it is taken.")
    /// `--poll SECONDS`: nil uses inotify.
    static let poll: OptionKey<Double?> = .number(
        "poll", valueName: "seconds", in: 0.01...86_400,
        help: "Scan every SECONDS instead of using inotify (network file systems).")
    static let jobs = CommonOptions.jobs("Files processed in parallel.")
    static let moveDone: OptionKey<String?> = .text(
        "move-done", valueName: "dir",
        help: "Move processed sources here, keeping their inbox path (default: leave them).")
    static let once: OptionKey<Bool> = .flag(
        "once", help: "Process what is in the inbox now, then exit (1 if any file failed).")
    /// watch's `--json` says where each part goes.
    static let json: OptionKey<Bool> = .flag(
        "json", help: "Log events as JSON lines on stderr, and the summary as JSON on stdout.")
    // Hidden (see OptionSpec.isHidden): a test seam of the real binary, not for users.
    // SIGKILLs the watcher when the N-th file reaches PHASE (WatchKillPoint).
    static let crashAt: OptionKey<WatchKillPoint?> = .parsedIfPresent(
        .value(
            "_crash-at", valueName: "phase:n",
            help: "Test seam: kill the watcher when the N-th file reaches PHASE (committed, moved, built).")
    ) { text throws(UsageError) in
        guard let point = WatchKillPoint(text) else {
            throw UsageError.invalidValue(
                option: "--_crash-at", value: text, reason: "expected committed, moved or built, ':' and N ≥ 1")
        }
        return point
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let inbox = arguments.argument("dir")!
        let catalogPath = try arguments[CatalogOptions.catalog]
        let outDir = try arguments[CatalogOptions.out]
        let moveDoneTo = try arguments[moveDone]
        let limits = try LimitOptions.limits(arguments)
        let json = try arguments[Self.json]
        let killPoint = try arguments[crashAt]

        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: inbox, isDirectory: &isFolder), isFolder.boolValue else {
            throw WatchError.io(path: inbox, reason: "no such folder")
        }
        try refuseOverlap(option: "out", folder: outDir, inbox: inbox)
        if let moveDoneTo { try refuseOverlap(option: "move-done", folder: moveDoneTo, inbox: inbox) }
        // Hold the lock before anything else touches the inbox.
        let lock = try WatchLock.acquire(inbox: inbox)
        let store = try CatalogOptions.openStore(catalog: catalogPath, mustExist: false)
        defer { store.close() }
        let recipes = try CatalogOptions.recipeBook(arguments, store: store)
        var ingestor = InboxIngestor(
            inbox: inbox, store: store, outputDirectory: outDir, recipes: recipes, limits: limits,
            moveDoneTo: moveDoneTo)
        if let killPoint { ingestor.crashPoints = killPoint }
        let options = WatchOptions(
            settleSeconds: try arguments[settle], pollSeconds: try arguments[poll], jobs: try arguments[jobs],
            once: try arguments[once],
            ownPaths: (CatalogOptions.catalogFile(catalogPath).map { [$0] } ?? []) + [outDir]
                + (moveDoneTo.map { [$0] } ?? []))
        let control = try WatchControl()
        let signals = installSignalHandlers(control)
        defer { signals.forEach { $0.cancel() } }

        let programName = context.programName
        let stderr = context.stderr
        let log: @Sendable (IngestEvent) -> Void = { event in
            // Inbox names are untrusted: no newline or escape sequence reaches the terminal raw.
            stderr.writeLine(json ? event.jsonLine : "\(programName): \(Terminal.oneLine(event.text))")
        }
        let summary = try await runSession(ingestor: ingestor, options: options, control: control, log: log)
        withExtendedLifetime(lock) {}

        if json {
            try context.writeJSON(summary)
        } else {
            context.print(summary.text)
        }
        if summary.inboxGone { return .failure }
        return options.once ? ExitCode(failureCount: summary.rejected + summary.failed) : .success
    }

    /// Refuses an `--out` or `--move-done` folder that is the inbox, lies inside it or contains
    /// it: the watcher would ingest its own outputs (or moved files) again, without end.
    static func refuseOverlap(option: String, folder: String, inbox: String) throws(UsageError) {
        let what: String
        switch FolderOverlap.relation(of: folder, to: inbox) {
        case nil: return
        case .same?: what = "is the inbox itself, so the watcher would take its own files as new ones"
        case .inside?: what = "is inside the inbox '\(inbox)', so the watcher would take its own files as new ones"
        case .contains?: what = "contains the inbox '\(inbox)', so the watcher's files would mix with the inbox's"
        }
        throw .validationFailed("--\(option) '\(folder)' \(what); choose a folder outside the inbox")
    }

    /// Runs the blocking watch loop on a thread of its own, so no task of the cooperative pool
    /// is parked on `poll(2)` for the life of the watcher.
    private static func runSession(
        ingestor: InboxIngestor, options: WatchOptions, control: WatchControl,
        log: @escaping @Sendable (IngestEvent) -> Void
    ) async throws -> WatchSession.Summary {
        let result: Result<WatchSession.Summary, WatchError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(WatchError) {
                    let session = try WatchSession(ingestor: ingestor, options: options, control: control, log: log)
                    continuation.resume(returning: .success(session.run()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "thumbkit-watch"
            thread.start()
        }
        return try result.get()
    }

    /// SIGINT and SIGTERM ask the session to stop (after finishing the files in flight). The
    /// default actions are switched off first, so the signal only reaches the dispatch sources.
    private static func installSignalHandlers(_ control: WatchControl) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { control.requestStop() }
            source.resume()
            return source
        }
    }
}
