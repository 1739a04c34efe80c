import DiaryCore
@testable import DiaryServer
import DiaryStore
import Foundation
import Testing

/// What the API tells a client about a failure says what happened and what to do, and nothing
/// that is the operator's business: no file path of the server, no command-line option or
/// command to run on the server's computer.
@Suite("Errors reaching HTTP are neutral")
struct NeutralErrorsTests {
    static let secretPath = "/srv/private/diary-of-mina.sqlite"

    /// Every storage failure the SQLite backend reports, and every account error.
    static let errors: [any Error] = [
        SQLiteFailure.cannotOpen(path: secretPath, reason: "permission denied"),
        SQLiteFailure.notADiary(path: secretPath),
        SQLiteFailure.otherProgramsDatabase(path: secretPath),
        SQLiteFailure.madeByNewerDiary(path: secretPath),
        SQLiteFailure.readOnly(path: secretPath),
        SQLiteFailure.busy(path: secretPath),
        SQLiteFailure.folder(path: secretPath),
        SQLiteFailure.diskFull(path: secretPath),
        AccountError.badName("x y"), AccountError.shortPassword(minimum: 8), AccountError.longPassword,
        AccountError.nameTaken("mina"), AccountError.noSuchUser("mina"), AccountError.alreadySetUp,
        AccountError.noSuchToken("phone"), AccountError.tokenNameTaken("phone"),
    ]

    @Test("No answer names a server path, an option or a diary command", arguments: 0..<errors.count)
    func neutral(index: Int) {
        let error = Self.errors[index]
        let answer = APIError.from(error)
        #expect(!answer.message.contains("/srv/") && !answer.message.contains(".sqlite"), "\(answer.message)")
        #expect(!answer.message.contains("--"), "\(answer.message)")
        #expect(!answer.message.contains("diary user") && !answer.message.contains("diary token"), "\(answer.message)")
        #expect(!answer.message.isEmpty)
        // The operator, at the terminal, is told where and what to do.
        if let failure = error as? any StorageFailure {
            #expect(failure.description.contains(Self.secretPath))
            #expect(answer.status.code == (failure.kind == .full ? 507 : 503))
        }
    }
}
