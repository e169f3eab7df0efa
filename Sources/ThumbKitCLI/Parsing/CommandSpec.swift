// SPDX-License-Identifier: Apache-2.0
/// Everything the parser and the help text know about one command: plain data, in the manner of
/// swift-argument-parser's `CommandConfiguration`.
///
/// A command either takes options and positionals (a leaf, such as `thumbkit thumb`) or has
/// subcommands (a group, such as `thumbkit catalog`). A group may declare flags of its own (the
/// root declares `--version`); they are accepted only when no subcommand follows. A group may
/// name a default subcommand (`thumbkit bench` runs `bench run`): a command line that names
/// none of the group's subcommands is then that subcommand's.
///
/// `-h` and `--help` are implicit on every command and cannot be declared.
struct CommandSpec: Sendable, Hashable {
    /// One positional argument: `<input>`, `[<output>]` or `<input> ...`.
    struct Positional: Sendable, Hashable {
        /// Name shown in help (`<input>`) and key for ``ParsedArguments/argument(_:)``.
        let name: String
        /// One-sentence help text.
        let help: String
        /// Takes every remaining positional token (only the last positional may).
        let isVariadic: Bool
        /// Missing required positionals are a ``UsageError/missingArgument(_:)``.
        let isRequired: Bool

        /// Declares a positional argument.
        init(name: String, help: String, isVariadic: Bool = false, isRequired: Bool = true) {
            precondition(!name.isEmpty, "A positional argument needs a name.")
            self.name = name
            self.help = help
            self.isVariadic = isVariadic
            self.isRequired = isRequired
        }

        /// A required single positional.
        static func required(_ name: String, help: String) -> Positional {
            Positional(name: name, help: help)
        }

        /// An optional single positional.
        static func optional(_ name: String, help: String) -> Positional {
            Positional(name: name, help: help, isRequired: false)
        }

        /// A positional that takes all remaining tokens; at least one when `required`.
        static func variadic(_ name: String, help: String, required: Bool = true) -> Positional {
            Positional(name: name, help: help, isVariadic: true, isRequired: required)
        }
    }

    /// The word that selects the command (`thumb`); for the root, the program name.
    let name: String
    /// One line shown after `OVERVIEW:` and in the parent's SUBCOMMANDS list.
    let abstract: String
    /// Longer text shown under the overview. Paragraphs are separated by blank lines and wrapped;
    /// lines that start with a space (examples) are kept as written.
    let discussion: String
    /// Positional arguments, in order.
    let positionals: [Positional]
    /// Named options, in help order (`-h, --help` is appended implicitly).
    let options: [OptionSpec]
    /// The typed reads of ``options``, run once by ``checkValues(_:)`` before the command runs.
    let checks: OptionChecks
    /// Nested commands (`thumbkit catalog import`); empty for a leaf.
    let subcommands: [CommandSpec]
    /// The subcommand a group runs when the command line names none of them (swift-argument-
    /// parser's `defaultSubcommand`); nil: naming one is required.
    let defaultSubcommand: String?

    /// Declares a command. Checks the table with messaged preconditions (duplicate names,
    /// a variadic positional that is not last, positionals on a group…).
    init(
        name: String, abstract: String, discussion: String = "",
        positionals: [Positional] = [], options declarations: [any OptionDeclaration] = [],
        subcommands: [CommandSpec] = [], defaultSubcommand: String? = nil
    ) {
        let options = declarations.map(\.spec)
        precondition(!name.isEmpty && !name.hasPrefix("-"), "Invalid command name '\(name)'.")
        var longs = Set<String>()
        var shorts = Set<Character>()
        for option in options {
            precondition(option.long != "help", "'--help' is implicit on '\(name)'; do not declare it.")
            precondition(option.short != "h", "'-h' is implicit on '\(name)'; do not declare it.")
            precondition(longs.insert(option.long).inserted, "'--\(option.long)' is declared twice in '\(name)'.")
            if let short = option.short {
                precondition(shorts.insert(short).inserted, "'-\(short)' is declared twice in '\(name)'.")
            }
        }
        for (index, positional) in positionals.enumerated() {
            precondition(
                !positional.isVariadic || index == positionals.count - 1,
                "Only the last positional of '\(name)' may be variadic.")
            precondition(
                !positional.isRequired || positionals[..<index].allSatisfy(\.isRequired),
                "Required positional '\(positional.name)' of '\(name)' follows an optional one.")
        }
        precondition(
            subcommands.isEmpty || positionals.isEmpty,
            "Command group '\(name)' cannot take positionals.")
        precondition(
            subcommands.isEmpty || options.allSatisfy { $0.kind == .flag },
            "Command group '\(name)' may only declare flags.")
        var names = Set<String>()
        for sub in subcommands {
            precondition(sub.name != "help", "'help' is implicit on '\(name)'; do not declare it.")
            precondition(names.insert(sub.name).inserted, "Subcommand '\(sub.name)' is declared twice in '\(name)'.")
        }
        precondition(
            defaultSubcommand == nil || options.isEmpty,
            "Group '\(name)' has a default subcommand, so its own flags could not be told from the default's.")
        if let defaultSubcommand, !subcommands.isEmpty {
            precondition(
                names.contains(defaultSubcommand),
                "Default subcommand '\(defaultSubcommand)' of '\(name)' is not one of its subcommands.")
        }
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.checks = OptionChecks(declarations: declarations)
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// Whether this command is a group that dispatches to subcommands.
    var isGroup: Bool { !subcommands.isEmpty }

    /// The declared option with this long name.
    func option(long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    /// The declared option with this short name.
    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }

    /// The direct subcommand with this name.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// A copy with `subcommands` replaced (used to build the tree from ``Command`` types).
    func replacingSubcommands(_ subcommands: [CommandSpec]) -> CommandSpec {
        CommandSpec(
            name: name, abstract: abstract, discussion: discussion, positionals: positionals,
            options: checks.declarations, subcommands: subcommands, defaultSubcommand: defaultSubcommand)
    }

    /// Reads every typed option of `arguments` once, so a value out of range or of the wrong
    /// form is a usage error before the command starts, whichever options its `run` reaches.
    func checkValues(_ arguments: ParsedArguments) throws(UsageError) {
        for declaration in checks.declarations { try declaration.check(arguments) }
    }
}

/// The declarations behind a spec's options, kept for their typed reads. Two specs are equal
/// when their options are (the readers are closures, which cannot be compared; they follow from
/// the options' names, kinds and ranges, which are).
struct OptionChecks: Sendable, Hashable {
    let declarations: [any OptionDeclaration]

    static func == (lhs: OptionChecks, rhs: OptionChecks) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
