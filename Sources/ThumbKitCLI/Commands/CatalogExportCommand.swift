// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKitCatalog

/// `thumbkit catalog export [-o FILE]`.
enum CatalogExportCommand: Command {
    static let spec = CommandSpec(
        name: "export", abstract: "Write every record and its outputs as JSON.",
        discussion: """
            Prints the catalog as JSON on stdout (or writes it to --output): every category, bug \
            and food with its id, title or name exactly as stored, rating, image and outputs \
            (path relative to the output folder, width, height, scale, kind, format, bytes, \
            recipe), plus the images folder, rating icons and logo. Paths inside the current \
            folder (or the output file's folder) are written relative to it. The result imports \
            back as the same records with the same ids. An --output that is the catalog or one \
            of its -wal, -shm or -journal files (by any path or link) is refused.
            """,
        options: [
            CatalogOptions.catalog,
            output,
        ])

    /// `-o FILE`: nil writes to stdout.
    static let output: OptionKey<String?> = .text(
        "output", short: "o", valueName: "file", help: "Write to this file instead of stdout.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        if let output = try arguments[Self.output],
            let database = CatalogOptions.catalogFile(try arguments[CatalogOptions.catalog]),
            CatalogFiles.match(output, database: database) != nil
        {
            throw UsageError.validationFailed("refusing to write the export over the catalog's own file '\(output)'")
        }
        let store = try CatalogOptions.openStore(arguments, readOnly: true)
        defer { store.close() }
        let exporter = CatalogExporter(store: store)
        if let output = try arguments[Self.output] {
            try exporter.export(to: output)
        } else {
            let data = try exporter.data(relativeTo: FileManager.default.currentDirectoryPath)
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            context.print(text)
        }
        return .success
    }
}
