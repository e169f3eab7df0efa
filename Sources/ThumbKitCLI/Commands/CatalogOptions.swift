// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog

/// Options and helpers shared by the catalog commands (`catalog …`, `build`, `site`).
enum CatalogOptions {
    /// The help of every `--catalog`: what a value may be.
    static let catalogHelp =
        "an SQLite database file, or a postgres:// (postgresql://) URL of a PostgreSQL database; "
        + "messages show the URL with its password as ***"
    /// `--catalog PATH|URL`: the database file or PostgreSQL URL.
    static let catalog: OptionKey<String> = .text(
        "catalog", valueName: "path|url", default: "./thumbkit.sqlite", help: "The catalog: " + catalogHelp + ".")
    /// `--out DIR`: the build's output folder.
    static let out: OptionKey<String> = .text(
        "out", valueName: "dir", default: "./thumbkit-out", help: "The output folder of built images.")
    /// `--recipes FILE|builtin`: a recipe file over the defaults, remembered by the catalog.
    static let recipes: OptionKey<String?> = .text(
        "recipes", valueName: "file",
        help: "A recipe file (JSON) applied over the built-in recipes; the catalog keeps using it until another "
            + "is given. 'builtin' goes back to the built-in recipes (./builtin names a file).")

    /// The `--recipes` value that means the built-in recipes.
    static let builtInRecipes = "builtin"
    /// `-j N`: records built in parallel.
    static let jobs = CommonOptions.jobs("Records built in parallel.")

    /// The catalog at `--catalog`. With `mustExist`, a missing file is an error rather than a new
    /// empty catalog (commands that only read or change records).
    /// A file that is there must be a catalog (`CatalogStore` refuses an empty or foreign one).
    /// With `readOnly` (commands that only read: list, show, export, site) the file is opened
    /// with `SQLITE_OPEN_READONLY`, so a catalog on a read-only mount can still be read.
    /// A PostgreSQL catalog (a `postgres://` URL) is opened the same way; "missing" there means
    /// a schema holding no catalog yet.
    static func openStore(_ arguments: ParsedArguments, mustExist: Bool = true, readOnly: Bool = false) throws
        -> CatalogStore
    {
        try openStore(catalog: arguments[catalog], mustExist: mustExist, readOnly: readOnly)
    }

    /// The catalog a `--catalog` value names (see `openStore(_:mustExist:readOnly:)`); `missing`
    /// makes the error for an SQLite file that is not there.
    static func openStore(
        catalog value: String, mustExist: Bool, readOnly: Bool = false,
        missing: (String) -> any Error = {
            CatalogError.missingFile($0, hint: "no catalog here: create one with 'thumbkit catalog import'")
        }
    ) throws -> CatalogStore {
        let location = try CatalogLocation(parsing: value)
        if case .sqlite(let path) = location, mustExist || readOnly, !FileManager.default.fileExists(atPath: path) {
            throw missing(path)
        }
        return try CatalogStore(location: location, readOnly: readOnly, mustExist: mustExist)
    }

    /// One warning line on stderr when a PostgreSQL URL on the command line (`--catalog URL`,
    /// `--catalog=URL` or an argument) gives a password: any user of the machine can read it in
    /// `/proc/PID/cmdline` for as long as the process runs. libpq takes it from the
    /// environment, a passfile or a service file instead.
    static func warnAboutPasswords(in arguments: [String], context: CommandContext) {
        let values = arguments.map { token in
            token.hasPrefix("--")
                ? token.firstIndex(of: "=").map { String(token[token.index(after: $0)...]) } ?? token : token
        }
        guard values.contains(where: CatalogLocation.holdsPassword) else { return }
        context.printError(
            "warning: a password on the command line can be read by every user of this machine "
                + "(/proc/PID/cmdline); give it with PGPASSWORD, a passfile (~/.pgpass or ?passfile=) or PGSERVICE")
    }

    /// The SQLite file a `--catalog` value names, or nil for a PostgreSQL URL (or a bad value,
    /// which opening the store reports).
    static func catalogFile(_ value: String) -> String? {
        if case .sqlite(let path)? = try? CatalogLocation(parsing: value) { return path }
        return nil
    }

    /// The recipes every command that builds uses (build, catalog rate, catalog set-image,
    /// watch): with `--recipes FILE` that file over the built-in ones, stored in the catalog;
    /// with `--recipes builtin` the built-in ones, stored too; without the flag, the set the
    /// catalog stored last (the built-in ones if none was ever given).
    static func recipeBook(_ arguments: ParsedArguments, store: CatalogStore) throws -> RecipeBook {
        switch try arguments[recipes] {
        case nil: return try store.recipeBook()
        case builtInRecipes?: return try store.useBuiltInRecipes()
        case let path?: return try store.useRecipeFile(at: path)
        }
    }

    /// A builder for `--out`, `--recipes`, `-j` and the limits (for commands that declare them).
    static func builder(_ arguments: ParsedArguments, store: CatalogStore, jobs: Int? = nil) throws -> CatalogBuilder {
        CatalogBuilder(
            store: store, outputDirectory: try arguments[out], recipes: try recipeBook(arguments, store: store),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, limits: try LimitOptions.limits(arguments))
    }

    /// `3` or `bug:3` (a bug), `food:3` (a food).
    static func record(_ text: String) throws(UsageError) -> RecordRef {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let kind = parts.count == 2 ? String(parts[0]).lowercased() : "bug"
        let number = parts.count == 2 ? parts[1] : parts[0]
        guard let id = Int(number), id >= 1, number.allSatisfy(\.isASCII) else {
            throw UsageError.validationFailed("invalid record '\(text)': expected N, bug:N or food:N")
        }
        switch kind {
        case "bug": return .bug(id)
        case "food": return .food(id)
        default: throw UsageError.validationFailed("invalid record '\(text)': the kind is bug or food")
        }
    }

    /// The options of a command that changes one record and rebuilds it (`catalog rate`,
    /// `rename`, `set-image`): where the catalog and outputs are, the recipes, `--no-build`, and
    /// the limits the rebuild decodes under.
    static let changeAndRebuild: [any OptionDeclaration] = [catalog, out, recipes, noBuild] + LimitOptions.all
    /// `--no-build`: change the record only.
    static let noBuild: OptionKey<Bool> = .flag("no-build", help: "Only change the record; build later.")

    /// A record change made by `catalog rate`, `rename` or `set-image`, and (unless
    /// `--no-build`) the claim of its record taken in the same transaction.
    struct Change<Value: Sendable> {
        let value: Value
        let claim: CatalogBuilder.OwnClaim?
        let worker: String
    }

    /// Makes `change` to a record in one write transaction and, unless `--no-build`, claims the
    /// record's build queue row there (`CatalogBuilder.claimOwn`), so that a worker running
    /// meanwhile does not build the record too. `--no-build` leaves the row queued for one.
    /// `change` returns the record as it wrote it, which the build takes instead of reading it
    /// again.
    static func change<Value: Sendable>(
        _ arguments: ParsedArguments, store: CatalogStore,
        _ change: (CatalogTransaction) throws -> (value: Value, written: WrittenRecord)
    ) throws -> Change<Value> {
        let build = !(try arguments[noBuild])
        let builder = try self.builder(arguments, store: store)
        let worker = BuildWorker.newID()
        let queue = BuildQueue(store: store)
        let (value, claim) = try store.write { tx in
            let (value, written) = try change(tx)
            let claim =
                build ? try builder.claimOwn(written, queue: queue, worker: worker, in: tx) : nil
            return (value, claim)
        }
        return Change(value: value, claim: claim, worker: worker)
    }

    /// Builds the record `change` claimed (nothing without a claim: `--no-build`), committing
    /// under that claim's fence, and prints the outputs line; returns the failures. A claim lost
    /// meanwhile (the record changed again) leaves the build to the claim's new holder.
    static func rebuild<Value>(
        _ change: Change<Value>, _ arguments: ParsedArguments, store: CatalogStore, context: CommandContext
    ) throws -> Int {
        guard let claim = change.claim else { return 0 }
        let built = try builder(arguments, store: store).build(
            claimed: claim, queue: BuildQueue(store: store), worker: change.worker,
            prepared: nil, onNote: { context.printError($0) }, done: { _, _ in })
        for line in built.report.failures { context.printError(line) }
        if built.lost {
            context.printError("\(claim.claim.record): changed again meanwhile; its new build is another's to make")
        }
        context.print("outputs: \(built.report.summary)")
        return built.report.failed
    }

    /// A record named by id (`record(_:)`), or else by title or name in `store`: the exact
    /// title first, then one that differs only in case. Several matches are an error listing
    /// them, so the user can name one by id.
    ///
    /// - Throws: `CatalogError.notFound` when nothing matches, `.invalidRecord` when several do.
    static func record(_ text: String, orTitleIn store: CatalogStore) throws -> RecordRef {
        if let ref = try? record(text) { return ref }
        let (bugs, foods) = try store.read { tx in (try tx.bugs(), try tx.foods()) }
        let all =
            bugs.map { (ref: $0.ref, title: $0.title, shown: "bug:\($0.id) \(Terminal.oneLine($0.title))") }
            + foods.map {
                (
                    ref: $0.ref, title: $0.name,
                    shown:
                        "food:\($0.id) \(Terminal.oneLine($0.name)) (\(Terminal.oneLine($0.category)))"
                )
            }
        var matches = all.filter { $0.title == text }
        if matches.isEmpty { matches = all.filter { $0.title.lowercased() == text.lowercased() } }
        let name = "'\(Terminal.oneLine(text))'"
        switch matches.count {
        case 0:
            throw CatalogError.notFound(path: name, reason: "no bug or food has this title or name")
        case 1:
            return matches[0].ref
        default:
            throw CatalogError.invalidRecord(
                path: name,
                reason: "\(matches.count) records have this title or name: "
                    + matches.map(\.shown).joined(separator: ", ") + "; name one by id")
        }
    }

    /// `1 file`, `2 files`: a count with the noun in the right number (`plural` defaults to
    /// the singular plus `s`).
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(value) " + (value == 1 ? singular : plural ?? singular + "s")
    }

    /// `1.9 KB`, `812 B`, `2.4 MB`.
    static func bytes(_ value: Double) -> String {
        if value < 1000 { return "\(Int(value.rounded())) B" }
        if value < 1_000_000 { return String(format: "%.1f KB", value / 1000) }
        return String(format: "%.1f MB", value / 1_000_000)
    }
}
