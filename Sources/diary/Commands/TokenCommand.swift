import ArgumentParser
import DiaryCore
import Foundation

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Personal access tokens, for API clients: Authorization: Bearer TOKEN.",
        subcommands: [Create.self, List.self, Revoke.self])

    /// The account a token command acts for: `--user`, or the only one.
    static func account(_ options: StoreOptions, _ accounts: Accounts) async throws -> User {
        guard let user = try await options.chosenUser(accounts) else {
            throw CommandError("Tokens belong to an account, and there is none yet: add one with: diary user add NAME")
        }
        return user
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Issue a token. It is shown once: keep it somewhere safe.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "A name to know the token by, such as the client that uses it.")
        var name: String

        func run() async throws {
            let accounts = try options.accounts(of: try await options.openStorage())
            let user = try await TokenCommand.account(options, accounts)
            let token = try await accounts.createToken(named: name, for: user)
            Output.print(token)
            Output.print("This is the only time the token is shown. Use it as: Authorization: Bearer TOKEN", to: .standardError)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List an account's tokens (never the tokens themselves).")

        @OptionGroup var options: StoreOptions

        func run() async throws {
            let accounts = try options.accounts(of: try await options.openStorage())
            let user = try await TokenCommand.account(options, accounts)
            let tokens = try await accounts.tokens(of: user)
            if tokens.isEmpty { Output.print("\(user.name) has no tokens. Issue one with: diary token create NAME") }
            for token in tokens {
                let used = token.lastUsedAt.map { "last used \(ISODate.string(from: $0))" } ?? "never used"
                Output.print("\(token.name)  created \(ISODate.string(from: token.createdAt)), \(used)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token: clients using it are refused from now on.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The token's name.")
        var name: String

        func run() async throws {
            let accounts = try options.accounts(of: try await options.openStorage())
            let user = try await TokenCommand.account(options, accounts)
            try await accounts.revokeToken(named: name, of: user)
            Output.print("Revoked \(name).")
        }
    }
}
