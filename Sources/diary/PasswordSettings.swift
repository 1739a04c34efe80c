import DiaryCore
import Foundation

/// bcrypt's work factor: 12 (about a quarter of a second per hash), unless `DIARY_BCRYPT_COST`
/// says otherwise; test suites lower it to stay fast.
enum PasswordSettings {
    static let bcryptCost = Setting<Int>.wholeNumber(variable: "DIARY_BCRYPT_COST", expected: "a whole number from 4 to 31")

    static func bcryptCost(environment: [String: String]) throws -> UInt8 {
        UInt8(try bcryptCost.resolve(flag: nil, environment: environment, default: 12, within: 4...31))
    }
}

/// A message for the person at the terminal, shown as it is.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
