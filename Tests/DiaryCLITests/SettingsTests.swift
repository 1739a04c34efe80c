import DiaryCore
import Foundation
import Testing

/// Every setting is resolved one way (`Setting`): its flag, then its environment variable, then
/// its default; a value that cannot be used is refused before anything is opened, naming the flag
/// or variable that held it.
@Suite("Settings: flag, then environment, then default")
struct SettingsTests {
    let quota = Setting<Int>.wholeNumber(flag: "--photo-quota", variable: "DIARY_PHOTO_QUOTA", expected: "a whole number of megabytes")

    @Test("The flag wins over the environment, the environment over the default; an empty variable is unset")
    func precedence() throws {
        let set = ["DIARY_PHOTO_QUOTA": "20"]
        let fromFlag = try quota.resolve(flag: 5, environment: set, default: 0)
        #expect(fromFlag.value == 5 && fromFlag.source == .flag("--photo-quota"))
        let fromEnvironment = try quota.resolve(flag: nil, environment: set, default: 0)
        #expect(fromEnvironment.value == 20 && fromEnvironment.source == .environment("DIARY_PHOTO_QUOTA"))
        let fromDefault = try quota.resolve(flag: nil, environment: ["DIARY_PHOTO_QUOTA": ""], default: 0)
        #expect(fromDefault.value == 0 && fromDefault.source == .defaultValue)
        // A bad variable is not read at all when the flag is given.
        #expect(try quota.resolve(flag: 5, environment: ["DIARY_PHOTO_QUOTA": "lots"], default: 0).value == 5)
    }

    @Test("A value that cannot be read, or is out of range, names where it came from")
    func errorsNameTheirSource() throws {
        let unreadable = try #require(throws: SettingError.self) {
            try quota.resolve(flag: nil, environment: ["DIARY_PHOTO_QUOTA": "lots"], default: 0)
        }
        #expect(unreadable.source == .environment("DIARY_PHOTO_QUOTA"))
        #expect(unreadable.description == "DIARY_PHOTO_QUOTA must be a whole number of megabytes, got \"lots\".")
        let tooLarge = try #require(throws: SettingError.self) {
            try quota.resolve(flag: nil, environment: ["DIARY_PHOTO_QUOTA": "900"], default: 0, within: 0...100, note: " megabytes")
        }
        #expect(tooLarge.description == "DIARY_PHOTO_QUOTA must be from 0 to 100 megabytes, got 900.")
        let negative = try #require(throws: SettingError.self) {
            try quota.resolve(flag: -1, environment: [:], default: 0, within: 0...100, note: " megabytes")
        }
        #expect(negative.source == .flag("--photo-quota") && negative.description.hasPrefix("--photo-quota must be from 0 to 100"))
        let on = Setting<Bool>.onOff(flag: "--trust-proxy", variable: "DIARY_TRUST_PROXY")
        #expect(try on.resolve(flag: nil, environment: ["DIARY_TRUST_PROXY": "1"], default: false).value)
        #expect(throws: SettingError.self) { try on.resolve(flag: nil, environment: ["DIARY_TRUST_PROXY": "yes"], default: false) }
    }

    @Test("diary serve refuses a bad setting before it opens anything, naming the flag or the variable")
    func serveNamesTheSource() throws {
        let diary = try DiaryProcess()
        let cases: [([String], [String: String], String)] = [
            (["--photo-quota=-5"], [:], "--photo-quota must be from 0 to 100000000 megabytes (0: no limit), got -5."),
            ([], ["DIARY_PHOTO_QUOTA": "200000000"], "DIARY_PHOTO_QUOTA must be from 0 to 100000000 megabytes (0: no limit), got 200000000."),
            ([], ["DIARY_PHOTO_QUOTA": "lots"], "DIARY_PHOTO_QUOTA must be a whole number of megabytes (0: no limit), got \"lots\"."),
            ([], ["DIARY_SEARCH_TIMEOUT": "soon"], "DIARY_SEARCH_TIMEOUT must be a number of seconds, got \"soon\"."),
            (["--search-timeout", "7200"], [:], "--search-timeout must be from 0.001 to 3600 seconds, got 7200."),
            ([], ["DIARY_BCRYPT_COST": "99"], "DIARY_BCRYPT_COST must be from 4 to 31, got 99."),
            ([], ["DIARY_TRUST_PROXY": "yes"], "DIARY_TRUST_PROXY must be 1 (on) or 0 (off), got \"yes\"."),
            ([], ["DIARY_WEATHER": "sunny"], "DIARY_WEATHER must be open-meteo, openweather or off"),
            (["--trash-days=-1"], [:], "--trash-days must be from 0 to 36500 (0: never), got -1."),
            (["--header-timeout", "0"], [:], "--header-timeout must be from 1 to 3600 seconds, got 0."),
        ]
        for (arguments, environment, message) in cases {
            let result = try diary.run(["serve", "--port", "0"] + arguments, environment: environment)
            #expect(result.status == 64, "\(arguments) \(environment): \(result.error)")
            #expect(result.error.contains(message), "\(arguments) \(environment): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: diary.database), "nothing was opened")
        // The flag is taken, and the variable it stands in front of never read.
        let flagFirst = try diary.run(["serve", "--photo-quota", "5", "--port", "99999"], environment: ["DIARY_PHOTO_QUOTA": "lots"])
        #expect(flagFirst.status == 64 && flagFirst.error.contains("--port must be from 0 to 65535") && !flagFirst.error.contains("DIARY_PHOTO_QUOTA"),
                "\(flagFirst.error)")
    }
}
