// SPDX-License-Identifier: Apache-2.0
/// `thumbkit catalog`: the records (bugs, foods, categories) and their outputs.
enum CatalogCommand: CommandGroup {
    static let spec = CommandSpec(
        name: "catalog", abstract: "Import, export, list, show and change the catalog's records.",
        discussion: """
            The catalog is one SQLite file (--catalog, default ./thumbkit.sqlite) or a \
            PostgreSQL database (--catalog postgres://…) holding bugs, foods in ordered \
            categories, the rating icons and logo, and every output built for them. Records are \
            named by id: N or bug:N for a bug, food:N for a food.
            """)
    static let subcommands: [any Command.Type] = [
        CatalogImportCommand.self, CatalogExportCommand.self, CatalogListCommand.self, CatalogShowCommand.self,
        CatalogRateCommand.self, CatalogSetImageCommand.self, CatalogRenameCommand.self, CatalogRemoveCommand.self,
        CatalogCopyCommand.self,
    ]
}
