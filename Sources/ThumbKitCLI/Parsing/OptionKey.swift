// SPDX-License-Identifier: Apache-2.0
/// A typed option: its ``OptionSpec`` (name, help, default, the range shown in help) and how its
/// text becomes a `Value`, declared once and read back as `try arguments[key]`.
///
/// ```swift
/// static let quality: OptionKey<Int> = .integer("quality", short: "q", in: 1...100, default: 85,
///                                               help: "JPEG quality.")
/// static let linear: OptionKey<Bool> = .flag("linear", help: "Resample in linear light.")
/// …
/// let quality = try arguments[Self.quality]    // an Int from 1 to 100
/// ```
///
/// The constructors come in pairs: with `default:` the value is never nil; without, `Value` is
/// optional and nil when the option is absent. A value that does not parse, or is out of the
/// declared range, is a ``UsageError`` naming `--long`, thrown before the command's `run` starts
/// (the framework reads every key of a command once, see ``CommandSpec/checkValues(_:)``).
struct OptionKey<Value>: Sendable {
    /// What the parser and the help see.
    let spec: OptionSpec
    private let read: @Sendable (ParsedArguments) throws(UsageError) -> Value

    /// A key with a hand-written reader; prefer the typed constructors.
    init(spec: OptionSpec, read: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// Reads this option from `arguments`.
    func value(in arguments: ParsedArguments) throws(UsageError) -> Value { try read(arguments) }
}

/// Anything that declares one option of a command: a typed ``OptionKey`` or a plain
/// ``OptionSpec``. ``CommandSpec`` takes a list of them.
protocol OptionDeclaration: Sendable {
    /// The option as the parser and the help see it.
    var spec: OptionSpec { get }
    /// Throws the ``UsageError`` a read of this option would throw (nothing for a plain spec).
    func check(_ arguments: ParsedArguments) throws(UsageError)
}

extension OptionSpec: OptionDeclaration {
    /// The spec itself.
    var spec: OptionSpec { self }
    /// A plain spec has no typed reader, so nothing to check beyond what the parser did.
    func check(_ arguments: ParsedArguments) throws(UsageError) {}
}

/// The plain constructors in a list of declarations: `options: [.flag("dry-run", help: …), Self.size]`.
extension OptionDeclaration where Self == OptionSpec {
    /// ``OptionSpec/flag(_:short:help:)``.
    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec.flag(long, short: short, help: help)
    }

    /// ``OptionSpec/value(_:short:valueName:help:default:defaultHelp:allowedValues:)``.
    static func value(
        _ long: String, short: Character? = nil, valueName: String = "value", help: String,
        default defaultValue: String? = nil, defaultHelp: String? = nil, allowedValues: [String]? = nil
    ) -> OptionSpec {
        OptionSpec.value(
            long, short: short, valueName: valueName, help: help, default: defaultValue, defaultHelp: defaultHelp,
            allowedValues: allowedValues)
    }

    /// ``OptionSpec/repeated(_:short:valueName:help:allowedValues:)``.
    static func repeated(
        _ long: String, short: Character? = nil, valueName: String = "value", help: String,
        allowedValues: [String]? = nil
    ) -> OptionSpec {
        OptionSpec.repeated(long, short: short, valueName: valueName, help: help, allowedValues: allowedValues)
    }

    /// ``OptionSpec/choice(_:short:valueName:of:default:help:)``.
    static func choice<T: RawRepresentable & CaseIterable>(
        _ long: String, short: Character? = nil, valueName: String = "mode", of type: T.Type,
        default defaultValue: T? = nil, help: String
    ) -> OptionSpec where T.RawValue == String {
        OptionSpec.choice(long, short: short, valueName: valueName, of: type, default: defaultValue, help: help)
    }
}

extension OptionKey: OptionDeclaration {
    /// Reads the value and drops it.
    func check(_ arguments: ParsedArguments) throws(UsageError) { _ = try value(in: arguments) }
}

extension ParsedArguments {
    /// The typed value of `key`, which must be an option of this command.
    subscript<Value>(key: OptionKey<Value>) -> Value {
        get throws(UsageError) { try key.value(in: self) }
    }
}

// MARK: Flags and text

extension OptionKey where Value == Bool {
    /// Present or not: `--linear`.
    static func flag(_ long: String, short: Character? = nil, help: String) -> Self {
        Self(spec: .flag(long, short: short, help: help)) { $0.flag(long) }
    }
}

extension OptionKey where Value == String {
    /// Text, with a default.
    static func text(
        _ long: String, short: Character? = nil, valueName: String = "value", default defaultValue: String,
        help: String
    ) -> Self {
        Self(spec: .value(long, short: short, valueName: valueName, help: help, default: defaultValue)) {
            $0.value(long)!
        }
    }
}

extension OptionKey where Value == String? {
    /// Text, nil when absent; `defaultHelp` says in help what absence means.
    static func text(
        _ long: String, short: Character? = nil, valueName: String = "value", defaultHelp: String? = nil,
        help: String
    ) -> Self {
        Self(spec: .value(long, short: short, valueName: valueName, help: help, defaultHelp: defaultHelp)) {
            $0.value(long)
        }
    }
}

extension OptionKey where Value == [String] {
    /// Every value of an option that may be given many times, in order.
    static func repeated(
        _ long: String, short: Character? = nil, valueName: String = "value", help: String,
        allowedValues: [String]? = nil
    ) -> Self {
        Self(
            spec: .repeated(long, short: short, valueName: valueName, help: help, allowedValues: allowedValues)
        ) { $0.values(long) }
    }
}

// MARK: Numbers

extension OptionKey where Value == Int {
    /// A whole number within `range`, with a default; help shows both.
    static func integer(
        _ long: String, short: Character? = nil, valueName: String = "n", in range: ClosedRange<Int>,
        default defaultValue: Int, help: String
    ) -> Self {
        precondition(range.contains(defaultValue), "Default \(defaultValue) of '--\(long)' is outside \(range).")
        let spec = OptionSpec.value(
            long, short: short, valueName: valueName, help: help, default: String(defaultValue)
        ).withRange(ParsedArguments.rangeHelp(range))
        return Self(spec: spec) { arguments throws(UsageError) in try arguments.int(long, in: range)! }
    }
}

extension OptionKey where Value == Int? {
    /// A whole number within `range`, nil when absent; `defaultHelp` says what absence means.
    static func integer(
        _ long: String, short: Character? = nil, valueName: String = "n", in range: ClosedRange<Int>,
        defaultHelp: String? = nil, help: String
    ) -> Self {
        let spec = OptionSpec.value(long, short: short, valueName: valueName, help: help, defaultHelp: defaultHelp)
            .withRange(ParsedArguments.rangeHelp(range))
        return Self(spec: spec) { arguments throws(UsageError) in try arguments.int(long, in: range) }
    }
}

extension OptionKey where Value == Double {
    /// A finite number within `range`, with a default; help shows both.
    static func number(
        _ long: String, valueName: String = "x", in range: ClosedRange<Double>, default defaultValue: Double,
        help: String
    ) -> Self {
        precondition(range.contains(defaultValue), "Default \(defaultValue) of '--\(long)' is outside \(range).")
        let spec = OptionSpec.value(
            long, valueName: valueName, help: help, default: ParsedArguments.shortest(defaultValue)
        ).withRange("\(ParsedArguments.shortest(range.lowerBound)) to \(ParsedArguments.shortest(range.upperBound))")
        return Self(spec: spec) { arguments throws(UsageError) in try arguments.double(long, in: range)! }
    }
}

extension OptionKey where Value == Double? {
    /// A finite number within `range`, nil when absent.
    static func number(
        _ long: String, valueName: String = "x", in range: ClosedRange<Double>, defaultHelp: String? = nil,
        help: String
    ) -> Self {
        let spec = OptionSpec.value(long, valueName: valueName, help: help, defaultHelp: defaultHelp)
            .withRange("\(ParsedArguments.shortest(range.lowerBound)) to \(ParsedArguments.shortest(range.upperBound))")
        return Self(spec: spec) { arguments throws(UsageError) in try arguments.double(long, in: range) }
    }
}

// MARK: Choices

extension OptionKey where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One case of a `String` enum, with a default; help lists the cases.
    static func choice(
        _ long: String, short: Character? = nil, valueName: String = "mode", default defaultValue: Value,
        help: String
    ) -> Self {
        Self(
            spec: .choice(long, short: short, valueName: valueName, of: Value.self, default: defaultValue, help: help)
        ) { arguments throws(UsageError) in try arguments.choice(long, as: Value.self)! }
    }
}

extension OptionKey {
    /// One case of a `String` enum, nil when absent.
    static func choice<Wrapped>(
        _ long: String, short: Character? = nil, valueName: String = "mode", of type: Wrapped.Type,
        help: String
    ) -> Self
    where Value == Wrapped?, Wrapped: RawRepresentable & CaseIterable & Sendable, Wrapped.RawValue == String {
        Self(spec: .choice(long, short: short, valueName: valueName, of: type, help: help)) {
            arguments throws(UsageError) in try arguments.choice(long, as: type)
        }
    }

    /// A value of any type: the text (the default when absent) goes through `parse`, which throws
    /// a ``UsageError`` for text it refuses. For `WxH` boxes, colours, `K/N` shards.
    static func parsed(
        _ spec: OptionSpec, _ parse: @escaping @Sendable (String) throws(UsageError) -> Value
    ) -> Self where Value: Sendable {
        precondition(spec.kind == .value && spec.defaultValue != nil, "'--\(spec.long)' needs a default.")
        return Self(spec: spec) { arguments throws(UsageError) in try parse(arguments.value(spec.long)!) }
    }

    /// Like ``parsed(_:_:)``, nil when the option is absent and has no default.
    static func parsedIfPresent<Wrapped: Sendable>(
        _ spec: OptionSpec, _ parse: @escaping @Sendable (String) throws(UsageError) -> Wrapped
    ) -> Self where Value == Wrapped? {
        precondition(spec.kind == .value, "'--\(spec.long)' must take one value.")
        return Self(spec: spec) { arguments throws(UsageError) in
            guard let text = arguments.value(spec.long) else { return nil }
            return try parse(text)
        }
    }
}

extension ParsedArguments {
    /// `1 to 100`, or `at least 1` when the range has no real top: what help shows as `range:`.
    static func rangeHelp(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
    }

    /// `2` for 2.0, `0.5` for 0.5: a number as a user would type it.
    static func shortest(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

extension OptionKey {
    /// A key that reads this one's value and transforms it (`?? activeProcessorCount`).
    func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> OptionKey<T> {
        let read = self.read
        return OptionKey<T>(spec: spec) { arguments throws(UsageError) in transform(try read(arguments)) }
    }
}

extension ParsedArguments {
    /// Whether `key` was given on the command line (as opposed to defaulted).
    func isPresent<Value>(_ key: OptionKey<Value>) -> Bool { isPresent(key.spec.long) }
}
