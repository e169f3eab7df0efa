// SPDX-License-Identifier: Apache-2.0
/// Renders help from the same ``CommandSpec`` that drives parsing, so help cannot drift:
///
/// ```
/// OVERVIEW: <abstract>
///
/// <discussion>
///
/// USAGE: thumbkit thumb [<options>] <input> ...
///
/// ARGUMENTS:
///   <input> ...             Image files to read.
///
/// OPTIONS:
///   -s, --size <WxH>        Target box. (default: 88x88)
///   --fit <mode>            How the source maps onto the box. (values: fill, fit; default: fill)
///   -h, --help              Show help information.
///
/// SUBCOMMANDS:              (groups only, followed by a pointer to `help <subcommand>`)
/// ```
///
/// Text is word-wrapped to ``width`` columns; help text starts at column ``labelColumn``
/// (or on the next line when the label is too long). Words longer than a line are not broken.
struct HelpFormatter: Sendable {
    /// Column at which the help text of ARGUMENTS / OPTIONS / SUBCOMMANDS rows starts.
    static let labelColumn = 26
    /// Help text for the implicit `-h, --help`.
    static let helpOptionText = "Show help information."

    /// Maximum line length (lines hold at least one word, so a very long word may exceed it).
    let width: Int

    /// A formatter wrapping to `width` columns (80 by default).
    init(width: Int = 80) {
        precondition(width > Self.labelColumn, "Help width must exceed the label column.")
        self.width = width
    }

    /// The full help text for `spec`, named `commandName` (`thumbkit catalog import`), ending in
    /// a newline.
    func help(for spec: CommandSpec, commandName: String) -> String {
        var sections: [[String]] = []
        if !spec.abstract.isEmpty {
            sections.append(wrap(words(spec.abstract), first: "OVERVIEW: ", rest: ""))
        }
        let discussion = discussionLines(spec.discussion)
        if !discussion.isEmpty { sections.append(discussion) }
        sections.append([usage(for: spec, commandName: commandName)])
        if !spec.positionals.isEmpty {
            sections.append(["ARGUMENTS:"] + spec.positionals.flatMap(positionalRow))
        }
        let helpRow = row(label: "-h, --help", text: Self.helpOptionText)
        sections.append(["OPTIONS:"] + spec.options.filter { !$0.isHidden }.flatMap(optionRow) + helpRow)
        if spec.isGroup {
            let rows = spec.subcommands.flatMap { sub in
                row(label: sub.name, text: sub.abstract + (sub.name == spec.defaultSubcommand ? " (default)" : ""))
            }
            sections.append(["SUBCOMMANDS:"] + rows)
            sections.append(["  See '\(commandName) help <subcommand>' for detailed help."])
        }
        return sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// The usage line(s), starting `USAGE: ` (no final newline); also printed after usage errors.
    func usage(for spec: CommandSpec, commandName: String) -> String {
        var units = [commandName]
        if spec.isGroup {
            units.append(spec.defaultSubcommand == nil ? "<subcommand>" : "[<subcommand>]")
        } else {
            if !spec.options.isEmpty { units.append("[<options>]") }
            for positional in spec.positionals {
                let core = "<\(positional.name)>" + (positional.isVariadic ? " ..." : "")
                units.append(positional.isRequired ? core : "[\(core)]")
            }
        }
        let hanging = String(repeating: " ", count: "USAGE: ".count)
        return wrap(units, first: "USAGE: ", rest: hanging).joined(separator: "\n")
    }

    // MARK: Rows

    private func optionRow(_ option: OptionSpec) -> [String] {
        var label = option.short.map { "-\($0), " } ?? ""
        label += option.displayName
        if option.takesValue { label += " <\(option.valueName)>" }
        if option.kind == .repeated { label += " ..." }
        var notes: [String] = []
        if let allowed = option.allowedValues { notes.append("values: \(allowed.joined(separator: ", "))") }
        if let range = option.rangeHelp { notes.append("range: \(range)") }
        if let shown = option.defaultValue ?? option.defaultHelp { notes.append("default: \(shown)") }
        var text = option.help
        if !notes.isEmpty {
            text += (text.isEmpty ? "" : " ") + "(\(notes.joined(separator: "; ")))"
        }
        return row(label: label, text: text)
    }

    private func positionalRow(_ positional: CommandSpec.Positional) -> [String] {
        row(label: "<\(positional.name)>" + (positional.isVariadic ? " ..." : ""), text: positional.help)
    }

    /// `  label` padded to the label column, then the wrapped text; a label too long for the
    /// column gets a line of its own.
    private func row(label: String, text: String) -> [String] {
        let head = "  " + label
        let indent = String(repeating: " ", count: Self.labelColumn)
        let textWords = words(text)
        if textWords.isEmpty { return [head] }
        if head.count + 2 <= Self.labelColumn {
            let padded = head + String(repeating: " ", count: Self.labelColumn - head.count)
            return wrap(textWords, first: padded, rest: indent)
        }
        return [head] + wrap(textWords, first: indent, rest: indent)
    }

    // MARK: Wrapping

    /// Paragraphs (separated by blank lines) are re-flowed; lines starting with a space are kept.
    private func discussionLines(_ text: String) -> [String] {
        var lines: [String] = []
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { lines += wrap(words(paragraph.joined(separator: " ")), first: "", rest: "") }
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                flush()
                lines.append("")
            } else if line.first == " " {
                flush()
                lines.append(String(line))
            } else {
                paragraph.append(String(line))
            }
        }
        flush()
        while lines.first == "" { lines.removeFirst() }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    private func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// Greedy word wrap: the first line starts with `first`, later ones with `rest`.
    private func wrap(_ units: [String], first: String, rest: String) -> [String] {
        var lines: [String] = []
        var current = first
        var hasWord = false
        for unit in units {
            if hasWord && current.count + 1 + unit.count > width {
                lines.append(current)
                current = rest + unit
            } else {
                current += (hasWord ? " " : "") + unit
            }
            hasWord = true
        }
        lines.append(hasWord ? current : String(current.reversed().drop { $0 == " " }.reversed()))
        return lines
    }
}
