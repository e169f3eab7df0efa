// SPDX-License-Identifier: Apache-2.0
/// One named option of a command: `--quality 85`, `-s 88x88`, `--linear`, `--job a --job b`.
///
/// The same value drives parsing (``ArgumentParser``), typed access (``ParsedArguments``) and
/// help (``HelpFormatter``), so the help text cannot drift from what the parser accepts.
///
/// ```swift
/// .value("quality", short: "q", valueName: "n", help: "JPEG quality, 1 to 100.", default: "85")
/// .choice("fit", of: ResizeMode.self, default: .fill, help: "How the source maps onto the box.")
/// .flag("linear", help: "Resize in linear light.")
/// .repeated("job", short: "j", valueName: "name", help: "Recipe to run.")
/// ```
struct OptionSpec: Sendable, Hashable {
    /// How many values an option takes.
    enum Kind: Sendable, Hashable {
        /// Takes no value; present or not (`--linear`).
        case flag
        /// Takes one value (`--quality 85`); given twice, the last one wins.
        case value
        /// Takes one value each time and may be given many times (`--job a --job b`).
        case repeated
    }

    /// Long name without dashes (`quality` for `--quality`); also the key for ``ParsedArguments``.
    let long: String
    /// Optional one-character short name (`q` for `-q`).
    let short: Character?
    /// Name of the value in help (`<n>`); unused for flags.
    let valueName: String
    /// One-sentence help text.
    let help: String
    /// Value used when the option is absent, shown in help as `(default: …)`.
    let defaultValue: String?
    /// Help-only description of the default when there is no literal one
    /// (`(default: next to each input)`); never parsed.
    let defaultHelp: String?
    /// Flag, single value or repeated.
    let kind: Kind
    /// When set, the only values accepted (checked while parsing, listed in help).
    let allowedValues: [String]?
    /// The range a typed key accepts, shown in help as `(range: 1 to 100; …)`; set by
    /// ``OptionKey``'s number constructors through ``withRange(_:)``.
    private(set) var rangeHelp: String?

    /// Declares an option. Prefer the ``flag(_:short:help:)``, ``value(_:short:valueName:help:default:defaultHelp:allowedValues:)``,
    /// ``repeated(_:short:valueName:help:allowedValues:)`` and ``choice(_:short:valueName:of:default:help:)`` shorthands.
    init(
        long: String, short: Character? = nil, valueName: String = "value", help: String,
        defaultValue: String? = nil, defaultHelp: String? = nil, kind: Kind,
        allowedValues: [String]? = nil
    ) {
        precondition(!long.isEmpty, "An option needs a long name.")
        precondition(!long.hasPrefix("-"), "Option names are given without dashes: '\(long)'.")
        precondition(
            !long.contains("=") && !long.contains(" "), "Option name '\(long)' contains '=' or a space.")
        precondition(short != "-" && short != "=", "'-' and '=' cannot be short option names.")
        precondition(kind != .flag || defaultValue == nil, "Flag '--\(long)' cannot have a default value.")
        precondition(kind != .flag || allowedValues == nil, "Flag '--\(long)' cannot have allowed values.")
        precondition(allowedValues.map { !$0.isEmpty } ?? true, "Option '--\(long)' allows no values.")
        if let defaultValue, let allowedValues {
            precondition(
                allowedValues.contains(defaultValue),
                "Default '\(defaultValue)' of '--\(long)' is not one of its allowed values.")
        }
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.defaultHelp = defaultHelp
        self.kind = kind
        self.allowedValues = allowedValues
    }

    /// A flag: `--linear`, or `-l` when `short` is given.
    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, help: help, kind: .flag)
    }

    /// An option with one value; `default` is used when it is absent and shown in help.
    static func value(
        _ long: String, short: Character? = nil, valueName: String = "value", help: String,
        default defaultValue: String? = nil, defaultHelp: String? = nil,
        allowedValues: [String]? = nil
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, valueName: valueName, help: help, defaultValue: defaultValue,
            defaultHelp: defaultHelp, kind: .value, allowedValues: allowedValues)
    }

    /// An option that may be given many times; ``ParsedArguments/values(_:)`` returns them in order.
    static func repeated(
        _ long: String, short: Character? = nil, valueName: String = "value", help: String,
        allowedValues: [String]? = nil
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, valueName: valueName, help: help, kind: .repeated,
            allowedValues: allowedValues)
    }

    /// A single-value option whose allowed values are the raw values of a `String` enum, so help
    /// and validation follow the enum. Read it back with ``ParsedArguments/choice(_:as:)``.
    static func choice<T: RawRepresentable & CaseIterable>(
        _ long: String, short: Character? = nil, valueName: String = "mode", of type: T.Type,
        default defaultValue: T? = nil, help: String
    ) -> OptionSpec where T.RawValue == String {
        OptionSpec(
            long: long, short: short, valueName: valueName, help: help,
            defaultValue: defaultValue?.rawValue, kind: .value,
            allowedValues: type.allCases.map(\.rawValue))
    }

    /// A copy whose help shows `range` (`1 to 100`).
    func withRange(_ range: String) -> OptionSpec {
        var copy = self
        copy.rangeHelp = range
        return copy
    }

    /// `--long`, the canonical spelling used in error messages.
    var displayName: String { "--\(long)" }

    /// Whether the option is left out of help and "did you mean" suggestions: a long name that
    /// starts with `_` (`--_disk-full-after`) marks a test seam of the real binary, documented
    /// where it is declared, not for users.
    var isHidden: Bool { long.hasPrefix("_") }

    /// Whether the option consumes a value.
    var takesValue: Bool { kind != .flag }
}
