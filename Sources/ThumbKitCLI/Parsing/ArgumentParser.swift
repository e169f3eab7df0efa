// SPDX-License-Identifier: Apache-2.0
/// Walks a command line against a tree of ``CommandSpec``s.
///
/// Accepted forms (everything else is a ``UsageError`` quoting the token):
/// - `--name value` and `--name=value`; `-s value`, `-svalue` and `-s=value`; bundled flags
///   `-lv`, where the last letter may take the rest of the token or the next token as its value.
/// - A value option takes the next token whatever it looks like (`--offset -5`, `--label -h`),
///   except `--` or a token starting with `--` (`--output --linear` is a missing value;
///   write `--output=--linear` if you mean it).
/// - `--` ends options: every later token is positional. A lone `-` is positional, and so is a
///   negative number (`-5`) unless the command declares that digit as a short option.
/// - A single-value option given twice keeps the last value; repeated options keep all.
/// - In a group, the first positional token names the subcommand and the rest of the line
///   belongs to it; `help [<subcommand> ...]` asks for help. A group's own flags are accepted
///   only when no subcommand follows; with no subcommand and no flags, it is a
///   ``UsageError/missingSubcommand(command:)``. A group with a default subcommand hands a line
///   whose first token names no subcommand (an option, another word, or nothing) to that
///   subcommand, whole; `-h`, `--help` and `help` there still ask for the group's help.
/// - `-h` / `--help` anywhere before `--` asks for help on the command reached so far, even when
///   an earlier token was wrong.
struct ArgumentParser: Sendable {
    /// What the command line asks for.
    enum Outcome: Sendable, Hashable {
        /// Run the selected command with these arguments.
        case run(ParsedArguments)
        /// Print help for this command (full name such as `thumbkit catalog import`).
        case help(CommandSpec, commandName: String)
    }

    /// A usage error together with the command being parsed when it happened, so the CLI can
    /// print that command's usage line.
    struct Failure: Error {
        let error: UsageError
        let spec: CommandSpec
        let commandName: String
    }

    /// The root command; its name is the program name (`thumbkit`).
    let root: CommandSpec

    /// A parser for the tree under `root`.
    init(root: CommandSpec) {
        self.root = root
    }

    /// Parses `arguments` (without the program name).
    func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        do throws(Failure) {
            return try parseWithContext(arguments)
        } catch {
            throw error.error
        }
    }

    /// Like ``parse(_:)``, but a failure names the command it happened in.
    func parseWithContext(_ arguments: [String]) throws(Failure) -> Outcome {
        var spec = root
        var path: [String] = []
        var start = 0
        while true {
            let name = ([root.name] + path).joined(separator: " ")
            var level = LevelParser(spec: spec, path: path, name: name, arguments: arguments, index: start)
            let step: LevelParser.Step
            do throws(UsageError) {
                step = try level.parse()
            } catch {
                if level.helpRequestedLater() { return .help(spec, commandName: name) }
                throw Failure(error: error, spec: spec, commandName: name)
            }
            switch step {
            case .finished(let outcome):
                return outcome
            case .descend(let subcommand, let next):
                spec = subcommand
                path.append(subcommand.name)
                start = next
            }
        }
    }
}

/// Parses the tokens that belong to one command of the tree.
private struct LevelParser {
    enum Step {
        case finished(ArgumentParser.Outcome)
        case descend(CommandSpec, at: Int)
    }

    let spec: CommandSpec
    let path: [String]
    let name: String
    let arguments: [String]
    var index: Int
    var flagCounts: [String: Int] = [:]
    var optionValues: [String: [String]] = [:]
    var positionals: [String] = []
    var afterTerminator = false

    init(spec: CommandSpec, path: [String], name: String, arguments: [String], index: Int) {
        self.spec = spec
        self.path = path
        self.name = name
        self.arguments = arguments
        self.index = index
    }

    mutating func parse() throws(UsageError) -> Step {
        if let fallback = defaultSubcommand() { return .descend(fallback, at: index) }
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if afterTerminator {
                if let step = try positional(token) { return step }
            } else if token == "--" {
                afterTerminator = true
            } else if token.hasPrefix("--") {
                if try longOption(token) { return .finished(.help(spec, commandName: name)) }
            } else if isShortCluster(token) {
                if try shortOptions(token) { return .finished(.help(spec, commandName: name)) }
            } else if let step = try positional(token) {
                return step
            }
        }
        return .finished(.run(try finish()))
    }

    /// The group's default subcommand, when the next token names none of its subcommands and
    /// asks for no help.
    private func defaultSubcommand() -> CommandSpec? {
        guard spec.isGroup, let name = spec.defaultSubcommand, let fallback = spec.subcommand(named: name) else {
            return nil
        }
        guard index < arguments.count else { return fallback }
        let token = arguments[index]
        if ["-h", "--help", "help"].contains(token) || spec.subcommand(named: token) != nil { return nil }
        // A word the default cannot take is a mistyped subcommand: the group says so.
        if !token.hasPrefix("-"), fallback.positionals.isEmpty { return nil }
        return fallback
    }

    /// After a failure: is there a `-h` / `--help` among the tokens not yet read (before `--`)?
    func helpRequestedLater() -> Bool {
        guard !afterTerminator, index < arguments.count else { return false }
        for token in arguments[index...] {
            if token == "--" { return false }
            if token == "-h" || token == "--help" { return true }
        }
        return false
    }

    // MARK: Options

    /// Handles `--name`, `--name=value`, `--name value`; returns true for `--help`.
    private mutating func longOption(_ token: String) throws(UsageError) -> Bool {
        let body = token.dropFirst(2)
        let equals = body.firstIndex(of: "=")
        let optionName = String(body[..<(equals ?? body.endIndex)])
        let inline = equals.map { String(body[body.index(after: $0)...]) }
        if optionName == "help" { return true }
        guard let option = spec.option(long: optionName) else {
            throw .unknownOption("--\(optionName)")
        }
        try apply(option, inline: inline)
        return false
    }

    /// Handles `-l`, `-lv`, `-s value`, `-svalue`, `-s=value`; returns true for `-h`.
    private mutating func shortOptions(_ token: String) throws(UsageError) -> Bool {
        let letters = Array(token.dropFirst())
        for (offset, letter) in letters.enumerated() {
            if letter == "h" { return true }
            guard let option = spec.option(short: letter) else { throw .unknownOption("-\(letter)") }
            guard option.takesValue else {
                try apply(option, inline: nil)
                continue
            }
            var rest = letters[(offset + 1)...]
            if rest.first == "=" { rest = rest.dropFirst() }
            let hasInline = offset + 1 < letters.count
            try apply(option, inline: hasInline ? String(rest) : nil)
            return false
        }
        return false
    }

    /// Records one occurrence of `option`, taking its value inline or from the next token.
    private mutating func apply(_ option: OptionSpec, inline: String?) throws(UsageError) {
        guard option.takesValue else {
            if let inline {
                throw .invalidValue(option: option.displayName, value: inline, reason: "the option takes no value")
            }
            flagCounts[option.long, default: 0] += 1
            return
        }
        let value: String
        if let inline {
            value = inline
        } else if index < arguments.count, !Self.refusedAsValue(arguments[index]) {
            value = arguments[index]
            index += 1
        } else {
            throw .missingValue(option: option.displayName)
        }
        if let allowed = option.allowedValues, !allowed.contains(value) {
            let reason = "expected one of \(allowed.joined(separator: ", "))"
            throw .invalidValue(option: option.displayName, value: value, reason: reason)
        }
        optionValues[option.long, default: []].append(value)
    }

    /// `--` and `--something` never serve as an option's value.
    private static func refusedAsValue(_ token: String) -> Bool {
        token.hasPrefix("--")
    }

    /// `-x…` is a cluster of short options, unless it is `-` alone or a negative number that
    /// does not start with a declared short option.
    private func isShortCluster(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        let first = token[token.index(after: token.startIndex)]
        if Double(token) != nil, spec.option(short: first) == nil { return false }
        return true
    }

    // MARK: Positionals and subcommands

    /// Records a positional token; in a group, selects the subcommand or asks for help.
    private mutating func positional(_ token: String) throws(UsageError) -> Step? {
        guard spec.isGroup else {
            positionals.append(token)
            return nil
        }
        guard flagCounts.isEmpty else { throw .unexpectedArgument(token) }
        if token == "help" { return .finished(try helpTopic()) }
        guard let subcommand = spec.subcommand(named: token) else { throw .unknownCommand(token) }
        return .descend(subcommand, at: index)
    }

    /// `help [<subcommand> ...]`: help for the named command below this group.
    private mutating func helpTopic() throws(UsageError) -> ArgumentParser.Outcome {
        var target = spec
        var targetName = name
        while index < arguments.count {
            let word = arguments[index]
            guard target.isGroup else { throw .unexpectedArgument(word) }
            guard let subcommand = target.subcommand(named: word) else { throw .unknownCommand(word) }
            target = subcommand
            targetName += " \(word)"
            index += 1
        }
        return .help(target, commandName: targetName)
    }

    /// Checks what must be present and builds the result.
    private func finish() throws(UsageError) -> ParsedArguments {
        if spec.isGroup && flagCounts.isEmpty { throw .missingSubcommand(command: name) }
        var named: [String: [String]] = [:]
        var next = 0
        for positional in spec.positionals {
            if positional.isVariadic {
                let rest = Array(positionals[next...])
                next = positionals.count
                if !rest.isEmpty {
                    named[positional.name] = rest
                } else if positional.isRequired {
                    throw .missingArgument(positional.name)
                }
            } else if next < positionals.count {
                named[positional.name] = [positionals[next]]
                next += 1
            } else if positional.isRequired {
                throw .missingArgument(positional.name)
            }
        }
        if next < positionals.count { throw .unexpectedArgument(positionals[next]) }
        return ParsedArguments(
            spec: spec, commandPath: path, commandName: name, positionals: positionals,
            flagCounts: flagCounts, optionValues: optionValues, positionalValues: named)
    }
}
