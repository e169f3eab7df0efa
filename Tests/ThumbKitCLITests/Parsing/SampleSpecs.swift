// SPDX-License-Identifier: Apache-2.0
@testable import ThumbKitCLI

/// A stand-in for `ResizeMode`, so these tests do not depend on the engine.
enum SampleFit: String, CaseIterable, Sendable {
    case fill, fit, pad, stretch
}

/// Command specs used by the parser, help and CLI tests; independent of the real commands.
enum Sample {
    static let thumb = CommandSpec(
        name: "thumb",
        abstract: "Make thumbnails from PNG and JPEG files.",
        discussion: """
            Each input is decoded, resized into the target box and written as a JPEG next to \
            it, unless --output names a folder.

            Examples:
              thumbkit thumb -s 88x88 photos/*.jpg
              thumbkit thumb --fit pad --json a.png
            """,
        positionals: [.variadic("input", help: "Image files to read.")],
        options: [
            .value(
                "size", short: "s", valueName: "WxH",
                help: "Target box; a single number N means an NxN square.", default: "88x88"),
            .choice("fit", of: SampleFit.self, default: .fill, help: "How the source maps onto the box."),
            .value("quality", short: "q", valueName: "n", help: "JPEG quality, 1 to 100.", default: "85"),
            .value("offset", valueName: "n", help: "Shift the crop centre by this many pixels."),
            .value("ratios", valueName: "list", help: "Comma-separated scale ratios."),
            .value(
                "output", short: "o", valueName: "dir", help: "Folder for the results.",
                defaultHelp: "next to each input"),
            .repeated("job", short: "j", valueName: "name", help: "Recipe to run; may be given more than once."),
            .repeated("level", valueName: "list", help: "Comma-separated levels."),
            .flag("linear", short: "l", help: "Resize in linear light."),
            .flag("verbose", short: "v", help: "Say more."),
            .flag("json", help: "Print the result as JSON on stdout."),
        ])

    static let importCommand = CommandSpec(
        name: "import", abstract: "Add images to the catalog.",
        positionals: [.variadic("path", help: "Files or folders to add.")],
        options: [.flag("dry-run", short: "n", help: "Show what would be added.")])

    static let list = CommandSpec(
        name: "list", abstract: "List catalog records.",
        positionals: [.optional("pattern", help: "Only records whose path contains this.")],
        options: [.value("limit", valueName: "n", help: "Most records to list.", default: "20")])

    static let catalog = CommandSpec(
        name: "catalog", abstract: "Manage the image catalog.", subcommands: [importCommand, list])

    static let copy = CommandSpec(
        name: "copy", abstract: "Copy one image.",
        positionals: [
            .required("source", help: "Image to read."),
            .required("destination", help: "Where to write it."),
            .optional("note", help: "A note to log."),
        ])

    static let root = CommandSpec(
        name: "thumbkit", abstract: "A sample tool.",
        options: [.flag("version", help: "Show the version.")],
        subcommands: [thumb, catalog, copy])

    static let parser = ArgumentParser(root: root)

    /// Parses `argv` and expects a command to run (not help).
    static func parse(_ argv: [String]) throws(UsageError) -> ParsedArguments {
        guard case .run(let parsed) = try parser.parse(argv) else {
            throw .validationFailed("expected a command to run, got help for \(argv)")
        }
        return parsed
    }
}
