// SPDX-License-Identifier: Apache-2.0
/// The result of parsing one command line against a ``CommandSpec``: raw and typed access by
/// long option name or positional name.
///
/// Asking for a name the spec does not declare (or a flag as a value) is a programming error
/// and stops with a messaged precondition, so a typo in a command shows up in its first test.
/// Typed helpers throw ``UsageError/invalidValue(option:value:reason:)`` naming `--long`.
struct ParsedArguments: Sendable, Hashable {
    /// A `WxH` size from ``size(_:)``.
    struct Size: Sendable, Hashable, CustomStringConvertible {
        /// Width in pixels, at least 1.
        let width: Int
        /// Height in pixels, at least 1.
        let height: Int

        /// A size; both sides must be at least 1.
        init(width: Int, height: Int) {
            precondition(width > 0 && height > 0, "Size sides must be positive.")
            self.width = width
            self.height = height
        }

        /// `88x88`.
        var description: String { "\(width)x\(height)" }
    }

    /// The spec of the command that was selected (the leaf, or a group run with its own flags).
    let spec: CommandSpec
    /// Subcommand names below the root (`["catalog", "import"]`); empty for the root itself.
    let commandPath: [String]
    /// Full name for messages (`thumbkit catalog import`).
    let commandName: String
    /// Every positional token, in order (after `--` too).
    let positionals: [String]
    let flagCounts: [String: Int]
    let optionValues: [String: [String]]
    let positionalValues: [String: [String]]

    /// Builds a result directly (the parser does this; tests of a command's `run` may too).
    init(
        spec: CommandSpec, commandPath: [String], commandName: String, positionals: [String],
        flagCounts: [String: Int] = [:], optionValues: [String: [String]] = [:],
        positionalValues: [String: [String]] = [:]
    ) {
        self.spec = spec
        self.commandPath = commandPath
        self.commandName = commandName
        self.positionals = positionals
        self.flagCounts = flagCounts
        self.optionValues = optionValues
        self.positionalValues = positionalValues
    }

    // MARK: Raw access

    /// Whether the flag was given.
    func flag(_ name: String) -> Bool { flagCount(name) > 0 }

    /// How many times the flag was given (`-vvv` is 3).
    func flagCount(_ name: String) -> Int {
        let option = declared(name)
        precondition(option.kind == .flag, "'--\(name)' of '\(commandName)' is not a flag.")
        return flagCounts[name, default: 0]
    }

    /// The value of a single-value option (the last one given), else its default, else nil.
    func value(_ name: String) -> String? {
        let option = declared(name)
        precondition(option.kind == .value, "'--\(name)' of '\(commandName)' is not a single-value option.")
        return optionValues[name]?.last ?? option.defaultValue
    }

    /// Every value of a repeated option, in the order given; `[default]` or `[]` when absent.
    /// On a single-value option: the effective value as a zero- or one-element array.
    func values(_ name: String) -> [String] {
        let option = declared(name)
        precondition(option.kind != .flag, "'--\(name)' of '\(commandName)' is a flag.")
        if option.kind == .value { return value(name).map { [$0] } ?? [] }
        return optionValues[name] ?? option.defaultValue.map { [$0] } ?? []
    }

    /// Whether the option was given on the command line (as opposed to defaulted).
    func isPresent(_ name: String) -> Bool {
        let option = declared(name)
        return option.kind == .flag ? flagCounts[name, default: 0] > 0 : optionValues[name] != nil
    }

    /// The token of a single positional, nil when an optional one was not given.
    func argument(_ name: String) -> String? {
        precondition(declaredPositional(name).isVariadic == false, "'<\(name)>' is variadic; use arguments(_:).")
        return positionalValues[name]?.first
    }

    /// The tokens of a positional (all of them for a variadic one).
    func arguments(_ name: String) -> [String] {
        _ = declaredPositional(name)
        return positionalValues[name] ?? []
    }

    // MARK: Typed access

    /// The value as an integer, optionally within `range`; nil when absent without default.
    func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        let reason = range.map(Self.describe)
        guard let number = Int(text) else { throw invalid(name, text, reason ?? "expected an integer") }
        if let range, !range.contains(number), let reason { throw invalid(name, text, reason) }
        return number
    }

    /// "expected an integer from 1 to 100", or "… of at least 1" when the range has no real top.
    static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "expected a whole number of at least \(range.lowerBound)"
            : "expected an integer from \(range.lowerBound) to \(range.upperBound)"
    }

    /// The value as a finite number, optionally within `range`; nil when absent without default.
    func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        let reason = range.map { "expected a number from \($0.lowerBound) to \($0.upperBound)" }
        guard let number = Double(text), number.isFinite else {
            throw invalid(name, text, reason ?? "expected a number")
        }
        if let range, !range.contains(number), let reason { throw invalid(name, text, reason) }
        return number
    }

    /// The value as a size: `WxH` (`88x88`, `640X480`), or a single number `N` meaning the
    /// square `NxN`. Both sides must be positive integers.
    func size(_ name: String) throws(UsageError) -> Size? {
        guard let text = value(name) else { return nil }
        guard let size = Self.parseSize(text) else {
            throw invalid(name, text, "expected WxH (such as 88x88) or N for an NxN square")
        }
        return size
    }

    /// The value(s) as a comma-separated list (`1,2,4` or `0.5,1.5`); for a repeated option, the
    /// lists of every occurrence joined in order. Spaces around items are ignored; empty items
    /// are not. `[]` when absent without default.
    func list<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) throws(UsageError) -> [T] {
        var result: [T] = []
        for text in values(name) {
            let items = text.split(separator: ",", omittingEmptySubsequences: false)
            for item in items {
                let trimmed = Self.trimmingSpaces(item)
                guard !trimmed.isEmpty, let parsed = T(trimmed) else {
                    throw invalid(name, text, "expected a comma-separated list of \(Self.noun(for: type))")
                }
                result.append(parsed)
            }
        }
        return result
    }

    /// The value as a case of a `String` enum (declare the option with
    /// ``OptionSpec/choice(_:short:valueName:of:default:help:)``); nil when absent without default.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type = T.self) throws(UsageError)
        -> T?
    where T.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let result = T(rawValue: text) else {
            let names = type.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid(name, text, "expected one of \(names)")
        }
        return result
    }

    // MARK: Helpers

    /// Parses `WxH` or `N`; nil when malformed or not positive.
    static func parseSize(_ text: String) -> Size? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "X", omittingEmptySubsequences: false) }
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let sides = parts.compactMap { part -> Int? in
            guard part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else { return nil }
            return Int(part)
        }
        guard sides.count == parts.count, sides.allSatisfy({ $0 > 0 }) else { return nil }
        return Size(width: sides[0], height: sides.last!)
    }

    private static func trimmingSpaces(_ text: Substring) -> String {
        var slice = text
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }

    private static func noun<T>(for type: T.Type) -> String {
        if type is any BinaryInteger.Type { return "integers" }
        if type is any BinaryFloatingPoint.Type { return "numbers" }
        return "values"
    }

    private func invalid(_ name: String, _ value: String, _ reason: String) -> UsageError {
        .invalidValue(option: "--\(name)", value: value, reason: reason)
    }

    private func declared(_ name: String) -> OptionSpec {
        guard let option = spec.option(long: name) else {
            preconditionFailure("'--\(name)' is not an option of '\(commandName)'.")
        }
        return option
    }

    private func declaredPositional(_ name: String) -> CommandSpec.Positional {
        guard let positional = spec.positionals.first(where: { $0.name == name }) else {
            preconditionFailure("'<\(name)>' is not an argument of '\(commandName)'.")
        }
        return positional
    }
}
