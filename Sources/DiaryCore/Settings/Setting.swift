import Foundation

/// One setting of the command line and the server: its flag, then its environment variable
/// (`DIARY_…`), then its default. Every setting is resolved by this one type, so the order is
/// the same for each, and an error names the source that held the bad value: a flag to retype,
/// or a variable to fix in a service's environment.
///
/// An empty environment variable counts as unset (`DIARY_WEATHER= diary new …` clears one set
/// in a profile). A flag's value comes already typed from the argument parser; a variable's is
/// read with `parse`, and one it cannot read is an error, never quietly the default.
public struct Setting<Value: Sendable>: Sendable {
    /// The flag, as typed: `--photo-quota`; `nil` for a setting of the environment alone.
    public let flag: String?
    /// The environment variable: `DIARY_PHOTO_QUOTA`; `nil` for a flag alone.
    public let variable: String?
    /// What a value must be, for the error: "a whole number of megabytes (0: no limit)".
    public let expected: String
    private let parse: @Sendable (String) -> Value?

    public init(flag: String? = nil, variable: String? = nil, expected: String, parse: @escaping @Sendable (String) -> Value?) {
        self.flag = flag
        self.variable = variable
        self.expected = expected
        self.parse = parse
    }

    /// The flag's value when it was given (`given`), else the variable's, else `nil`; with where
    /// it came from.
    public func resolve(flag given: Value?, environment: [String: String]) throws(SettingError) -> Resolved<Value>? {
        if let given { return Resolved(value: given, source: flag.map(SettingSource.flag) ?? .defaultValue) }
        guard let variable, let text = environment[variable], !text.isEmpty else { return nil }
        guard let value = parse(text) else {
            throw SettingError(source: .environment(variable), "\(variable) must be \(expected), got \"\(text)\".")
        }
        return Resolved(value: value, source: .environment(variable))
    }

    /// The flag's value, else the variable's, else `defaultValue`; with where it came from.
    public func resolve(flag given: Value?, environment: [String: String], default defaultValue: Value) throws(SettingError) -> Resolved<Value> {
        try resolve(flag: given, environment: environment) ?? Resolved(value: defaultValue, source: .defaultValue)
    }
}

extension Setting where Value: Comparable {
    /// As `resolve`, checked to lie in `range`: an error names the flag or variable that set a
    /// value outside it ("--port must be from 0 to 65535 (0 picks a free one), got 99999.").
    /// `note` follows the range in the message (units, what the ends mean).
    public func resolve(flag given: Value?, environment: [String: String], default defaultValue: Value,
                        within range: ClosedRange<Value>, note: String = "") throws(SettingError) -> Value {
        let resolved = try resolve(flag: given, environment: environment, default: defaultValue)
        try Self.check(resolved, within: range, note: note)
        return resolved.value
    }

    /// Refuses a value outside `range`, naming its source.
    public static func check(_ resolved: Resolved<Value>, within range: ClosedRange<Value>, note: String = "") throws(SettingError) {
        guard !range.contains(resolved.value) else { return }
        throw SettingError(source: resolved.source,
                           "\(resolved.source) must be from \(shown(range.lowerBound)) to \(shown(range.upperBound))\(note), got \(shown(resolved.value)).")
    }

    /// A number as a person writes it: 3600, not 3600.0.
    private static func shown(_ value: Value) -> String {
        if let number = value as? Double, number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        return "\(value)"
    }
}

extension Setting where Value == String {
    /// A text setting (a path, a name, a URL), taken as given.
    public init(flag: String? = nil, variable: String?) {
        self.init(flag: flag, variable: variable, expected: "text") { $0 }
    }
}

extension Setting where Value == Int {
    /// A whole number; `expected` says of what ("a whole number of megabytes").
    public static func wholeNumber(flag: String? = nil, variable: String?, expected: String = "a whole number") -> Setting<Int> {
        Setting(flag: flag, variable: variable, expected: expected) { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

extension Setting where Value == Double {
    /// A number, fractions allowed ("a number of seconds"); never NaN or infinite.
    public static func number(flag: String? = nil, variable: String?, expected: String = "a number") -> Setting<Double> {
        Setting(flag: flag, variable: variable, expected: expected) { text in
            Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        }
    }
}

extension Setting where Value == [String] {
    /// A list: a flag given once per item, a variable's items separated by commas (blanks dropped).
    public static func list(flag: String? = nil, variable: String?) -> Setting<[String]> {
        Setting(flag: flag, variable: variable, expected: "a comma-separated list") { text in
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}

extension Setting where Value == Bool {
    /// A switch: a flag given turns it on; a variable is `1` (on) or `0` (off).
    public static func onOff(flag: String? = nil, variable: String?) -> Setting<Bool> {
        Setting(flag: flag, variable: variable, expected: "1 (on) or 0 (off)") { text in
            switch text.trimmingCharacters(in: .whitespaces) {
            case "1": true
            case "0": false
            default: nil
            }
        }
    }
}

/// A setting's value, and where it came from.
public struct Resolved<Value: Sendable>: Sendable {
    public var value: Value
    public var source: SettingSource

    public init(value: Value, source: SettingSource) {
        self.value = value
        self.source = source
    }
}

/// Where a setting's value came from: named in an error, so the right one is fixed.
public enum SettingSource: Sendable, Hashable, CustomStringConvertible {
    /// A flag on the command line: `--photo-quota`.
    case flag(String)
    /// An environment variable: `DIARY_PHOTO_QUOTA`.
    case environment(String)
    /// Neither was given.
    case defaultValue

    public var description: String {
        switch self {
        case .flag(let name), .environment(let name): name
        case .defaultValue: "the default"
        }
    }
}

/// A setting's value that cannot be used, naming the flag or variable that held it.
public struct SettingError: Error, Equatable, CustomStringConvertible {
    public var source: SettingSource
    public var description: String

    public init(source: SettingSource, _ description: String) {
        self.source = source
        self.description = description
    }
}
