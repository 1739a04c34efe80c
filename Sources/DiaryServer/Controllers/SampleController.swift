import DiaryCore
import Foundation
import Hummingbird

/// `/api/v1/sample`: the original app's sample diary, offered to a new, empty diary.
struct SampleController {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Diary
    /// The bundled `sample.json`, the 15 records the iOS app shipped with.
    let sample: Data

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("sample", use: load)
    }

    struct Loaded: Encodable { var imported: Int }

    @Sendable func load(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        // Emptiness is checked in the import's transaction: a double click (two loads at once)
        // stores the sample once, and the second gets 409 not_empty.
        let summary = try await store.importEntries(try ImportFile.entries(from: sample), onlyIntoEmptyDiary: true)
        return try JSONResponse.make(Loaded(imported: summary.imported), status: .created)
    }
}
