// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ThumbKitCLI

/// Golden help texts: the exact layout is part of the interface (scripts and docs quote it).
struct HelpFormatterTests {
    @Test func leafHelpShowsOverviewDiscussionUsageArgumentsAndOptions() {
        let text = HelpFormatter().help(for: Sample.thumb, commandName: "thumbkit thumb")
        #expect(
            text == """
                OVERVIEW: Make thumbnails from PNG and JPEG files.

                Each input is decoded, resized into the target box and written as a JPEG next to
                it, unless --output names a folder.

                Examples:
                  thumbkit thumb -s 88x88 photos/*.jpg
                  thumbkit thumb --fit pad --json a.png

                USAGE: thumbkit thumb [<options>] <input> ...

                ARGUMENTS:
                  <input> ...             Image files to read.

                OPTIONS:
                  -s, --size <WxH>        Target box; a single number N means an NxN square.
                                          (default: 88x88)
                  --fit <mode>            How the source maps onto the box. (values: fill, fit,
                                          pad, stretch; default: fill)
                  -q, --quality <n>       JPEG quality, 1 to 100. (default: 85)
                  --offset <n>            Shift the crop centre by this many pixels.
                  --ratios <list>         Comma-separated scale ratios.
                  -o, --output <dir>      Folder for the results. (default: next to each input)
                  -j, --job <name> ...    Recipe to run; may be given more than once.
                  --level <list> ...      Comma-separated levels.
                  -l, --linear            Resize in linear light.
                  -v, --verbose           Say more.
                  --json                  Print the result as JSON on stdout.
                  -h, --help              Show help information.

                """)
    }

    @Test func groupHelpListsSubcommandsAndPointsToHelp() {
        let text = HelpFormatter().help(for: Sample.catalog, commandName: "thumbkit catalog")
        #expect(
            text == """
                OVERVIEW: Manage the image catalog.

                USAGE: thumbkit catalog <subcommand>

                OPTIONS:
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  import                  Add images to the catalog.
                  list                    List catalog records.

                  See 'thumbkit catalog help <subcommand>' for detailed help.

                """)
    }

    static let usageLines: [ArgvRow<String>] = [
        ArgvRow("variadic", ["thumb"], "USAGE: thumbkit thumb [<options>] <input> ..."),
        ArgvRow("required then optional", ["copy"], "USAGE: thumbkit copy <source> <destination> [<note>]"),
        ArgvRow("optional with options", ["catalog", "list"], "USAGE: thumbkit catalog list [<options>] [<pattern>]"),
        ArgvRow("group", ["catalog"], "USAGE: thumbkit catalog <subcommand>"),
        ArgvRow("root", [], "USAGE: thumbkit <subcommand>"),
    ]

    @Test(arguments: usageLines)
    func theUsageLineShowsOptionalAndVariadicArguments(row: ArgvRow<String>) {
        var spec = Sample.root
        for name in row.argv { spec = spec.subcommand(named: name)! }
        let name = (["thumbkit"] + row.argv).joined(separator: " ")
        #expect(HelpFormatter().usage(for: spec, commandName: name) == row.expected)
    }

    @Test func aLabelTooLongForItsColumnGetsALineOfItsOwn() {
        let spec = CommandSpec(
            name: "probe", abstract: "",
            options: [
                .value("maximum-file-bytes", short: "m", valueName: "bytes", help: "Refuse larger files."),
                .value("max-pixels-x", valueName: "n", help: "Fits exactly."),
                .flag("quiet", help: ""),
            ])
        #expect(
            HelpFormatter().help(for: spec, commandName: "thumbkit probe") == """
                USAGE: thumbkit probe [<options>]

                OPTIONS:
                  -m, --maximum-file-bytes <bytes>
                                          Refuse larger files.
                  --max-pixels-x <n>      Fits exactly.
                  --quiet
                  -h, --help              Show help information.

                """)
    }

    @Test func narrowHelpWrapsEveryLineToTheWidthAndKeepsExamples() {
        let spec = CommandSpec(
            name: "strip", abstract: "Render rating strips for every catalog record.",
            discussion: "A strip shows one to five stars\nat the chosen size.\n\n  thumbkit strip --stars 3\n",
            positionals: [.variadic("record", help: "Records to render, by id or path.", required: false)],
            options: [.value("stars", valueName: "n", help: "Number of filled stars.", default: "5")])
        let text = HelpFormatter(width: 40).help(for: spec, commandName: "thumbkit strip")
        #expect(
            text == """
                OVERVIEW: Render rating strips for every
                catalog record.

                A strip shows one to five stars at the
                chosen size.

                  thumbkit strip --stars 3

                USAGE: thumbkit strip [<options>]
                       [<record> ...]

                ARGUMENTS:
                  <record> ...            Records to
                                          render, by id
                                          or path.

                OPTIONS:
                  --stars <n>             Number of
                                          filled stars.
                                          (default: 5)
                  -h, --help              Show help
                                          information.

                """)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 40 })
    }

    @Test func helpFollowsTheSpecSoItCannotDrift() {
        let base = CommandSpec(
            name: "x", abstract: "X.", options: [.value("quality", valueName: "n", help: "Q.", default: "85")])
        let changed = CommandSpec(
            name: "x", abstract: "X.", options: [.value("quality", valueName: "n", help: "Q.", default: "92")])
        let formatter = HelpFormatter()
        #expect(formatter.help(for: base, commandName: "x").contains("(default: 85)"))
        #expect(formatter.help(for: changed, commandName: "x").contains("(default: 92)"))
        #expect(!formatter.help(for: changed, commandName: "x").contains("(default: 85)"))
    }

    /// `--_disk-full-after` and `--_crash-at` are test seams of the real binary: parsed, but
    /// neither listed in help nor offered as a "did you mean".
    @Test func optionsNamedWithAnUnderscoreAreParsedButHiddenFromHelpAndSuggestions() throws {
        for (command, hidden) in [(ThumbCommand.spec, "_disk-full-after"), (WatchCommand.spec, "_crash-at")] {
            let option = try #require(command.option(long: hidden))
            #expect(option.isHidden)
            let help = HelpFormatter().help(for: command, commandName: "thumbkit " + command.name)
            #expect(!help.contains(hidden), "\(command.name)")
            #expect(Suggestion.line(for: .unknownOption("--" + hidden.dropFirst()), in: command) == nil)
            #expect(command.options.filter(\.isHidden).map(\.long) == [hidden])
        }
        #expect(!ThumbCommand.spec.option(long: "quality")!.isHidden)
    }
}
