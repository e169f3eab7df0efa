import Foundation
import ThumbKit
import ThumbKitCatalog

/// Options and helpers shared by the catalog commands (`catalog …`, `build`, `site`).
enum CatalogOptions {
    /// `--catalog PATH`: the database file.
    static let catalog = OptionSpec.value(
        "catalog", valueName: "path", help: "The catalog database file.", default: "./thumbkit.sqlite")
    /// `--out DIR`: the build's output folder.
    static let out = OptionSpec.value(
        "out", valueName: "dir", help: "The output folder of built images.", default: "./thumbkit-out")
    /// `--recipes FILE`: a recipe file over the defaults.
    static let recipes = OptionSpec.value(
        "recipes", valueName: "file", help: "A recipe file (JSON) applied over the built-in recipes.")
    /// `-j N`: records built in parallel.
    static let jobs = OptionSpec.value(
        "jobs", short: "j", valueName: "n", help: "Records built in parallel.", defaultHelp: "active processors")

    /// The catalog at `--catalog`. With `mustExist`, a missing file is an error rather than a new
    /// empty catalog (commands that only read or change records).
    static func openStore(_ arguments: ParsedArguments, mustExist: Bool = true) throws -> CatalogStore {
        let path = arguments.value("catalog")!
        if mustExist, !FileManager.default.fileExists(atPath: path) {
            throw CatalogError.notFound(
                path: path, reason: "no catalog here (create one with 'thumbkit catalog import')")
        }
        return try CatalogStore(path: path)
    }

    /// The recipes: the built-in ones, with `--recipes` applied when given.
    static func recipeBook(_ arguments: ParsedArguments) throws -> RecipeBook {
        guard let path = arguments.value("recipes") else { return .defaults }
        return try RecipeBook.load(path: path)
    }

    /// A builder for `--out`, `--recipes` and `-j` (for commands that declare them).
    static func builder(_ arguments: ParsedArguments, store: CatalogStore, jobs: Int? = nil) throws -> CatalogBuilder {
        CatalogBuilder(
            store: store, outputDirectory: arguments.value("out")!, recipes: try recipeBook(arguments),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
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

    /// Builds `record` after a change (for `catalog rate` and `set-image`) and reports what was
    /// done; failures go to stderr. Returns the number of failures.
    static func rebuild(_ record: RecordRef, _ arguments: ParsedArguments, store: CatalogStore, context: CommandContext)
        throws -> Int
    {
        let report = try builder(arguments, store: store).build(
            only: [record], onFailure: { context.printError($0) })
        context.print("outputs: \(report.summary)")
        return report.failed
    }

    /// Throws `CatalogError.invalidRecord` unless the file at `path` starts like a PNG or JPEG
    /// (`.io` when it cannot be read).
    static func requireImage(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            throw CatalogError.io(path: path, reason: "cannot open the file")
        }
        defer { try? handle.close() }
        guard ImageFormat.sniff([UInt8](handle.readData(ofLength: 64))) != nil else {  // ftyp brands need 16+ bytes
            throw CatalogError.invalidRecord(path: path, reason: "not a PNG or JPEG file")
        }
    }

    /// `1.9 KB`, `812 B`, `2.4 MB`.
    static func bytes(_ value: Double) -> String {
        if value < 1000 { return "\(Int(value.rounded())) B" }
        if value < 1_000_000 { return String(format: "%.1f KB", value / 1000) }
        return String(format: "%.1f MB", value / 1_000_000)
    }
}
