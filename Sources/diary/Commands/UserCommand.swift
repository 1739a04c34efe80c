import ArgumentParser
import DiaryCore
import Foundation

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the accounts that may log in to the web app.",
        subcommands: [Add.self, Passwd.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an account. The password is read from the terminal without echo, or from standard input.",
            discussion: "The first account adopts every entry written before it, with the command line for instance.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The account's name: letters, digits, dots, dashes or underscores.")
        var name: String

        func run() async throws {
            try User.checkName(name)
            let accounts = try options.accounts(of: try await options.openStorage(), settingPasswords: true)
            if try await accounts.user(named: name) != nil { throw AccountError.nameTaken(name) }
            let password = try PasswordInput.read(prompt: "Password for \(name): ", confirm: true)
            let first = try await accounts.userCount() == 0
            _ = try await accounts.addUser(name: name, password: password)
            Output.print(first ? "Added \(name); the entries already in the diary are now theirs." : "Added \(name).")
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd", abstract: "Change an account's password, and end every session and access token of it.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The account's name.")
        var name: String

        func run() async throws {
            let accounts = try options.accounts(of: try await options.openStorage(), settingPasswords: true)
            guard try await accounts.user(named: name) != nil else { throw AccountError.noSuchUser(name) }
            let password = try PasswordInput.read(prompt: "New password for \(name): ", confirm: true)
            let change = try await accounts.setPassword(name: name, password: password)
            Output.print("Changed the password of \(name); \(Self.counted(change.endedSessions, "session")) and \(Self.counted(change.endedTokens, "access token")) were ended.")
        }

        /// "1 session", "2 access tokens".
        static func counted(_ count: Int, _ thing: String) -> String {
            "\(count) \(thing)\(count == 1 ? "" : "s")"
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let users = try await options.accounts(of: try await options.openStorage()).users()
            if users.isEmpty {
                Output.print("There are no accounts yet. Add one with: diary user add NAME")
            }
            let dates = LongDate(environment: ProcessInfo.processInfo.environment)
            for user in users { Output.print("\(user.name)  (since \(dates.string(from: user.createdAt)))") }
        }
    }
}
