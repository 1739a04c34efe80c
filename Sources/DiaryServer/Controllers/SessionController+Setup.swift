import Foundation
import Hummingbird

/// Who may make the first account: someone on this computer, or whoever has the code that
/// `diary serve` printed on its terminal.
extension SessionController {
    struct SetupCredentials: Decodable {
        var name: String
        var password: String
        /// Needed from another computer only.
        var setupCode: String?
    }

    /// `true` when setup is `needed` and this client must bring the code; `nil` otherwise (the
    /// answer then says nothing of codes).
    func setupCodeNeeded(_ needed: Bool, _ request: Request, _ context: DiaryRequestContext) -> Bool? {
        needed && !isFromThisComputer(request, context) ? true : nil
    }

    /// Lets a setup from this computer through; from elsewhere, takes the setup code if it is the
    /// one offered (then `true`: give it back if the setup fails), or refuses with a 403.
    func takeSetupCode(_ offered: String?, _ request: Request, _ context: DiaryRequestContext) throws -> Bool {
        if isFromThisComputer(request, context) { return false }
        guard let offered, !offered.isEmpty else { throw APIError.setupCodeNeeded }
        guard let setupCode, setupCode.take(offered) else { throw APIError.wrongSetupCode }
        return true
    }

    /// Whether the client is on this computer (see `DiaryRequestContext.clientIsLoopback`: behind
    /// trusted proxies, the client they name, and a proxy that names none counts as remote).
    func isFromThisComputer(_ request: Request, _ context: DiaryRequestContext) -> Bool {
        context.clientIsLoopback
    }
}

extension APIError {
    static let setupCodeNeeded = APIError(
        status: .forbidden, code: .setupCode,
        message: "Only this diary's owner may set it up from another computer: enter the setup code that `diary serve` printed in its terminal when it started.")
    static let wrongSetupCode = APIError(
        status: .forbidden, code: .setupCode,
        message: "That setup code is not the one `diary serve` printed in its terminal when it started (a new code is printed at each start).")
}
