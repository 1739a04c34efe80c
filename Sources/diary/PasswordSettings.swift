import Foundation

/// bcrypt's work factor: 12 (about a quarter of a second per hash), unless `DIARY_BCRYPT_COST`
/// says otherwise; test suites lower it to stay fast.
enum PasswordSettings {
    static func bcryptCost(environment: [String: String]) throws -> UInt8 {
        guard let text = environment["DIARY_BCRYPT_COST"], !text.isEmpty else { return 12 }
        guard let cost = UInt8(text), (4...31).contains(cost) else { throw SettingError("DIARY_BCRYPT_COST must be a whole number from 4 to 31.") }
        return cost
    }
}

struct SettingError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
