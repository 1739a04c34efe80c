import DiaryCore
import Foundation
import Hummingbird

/// `/api/v1/sample`: the original app's sample diary, offered to a new, empty diary.
struct SampleController<Store: EntryStore> {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Store
    /// The bundled `sample.json`, the 15 records the iOS app shipped with.
    let sample: Data

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("sample", use: load)
    }

    struct Loaded: Encodable { var imported: Int }

    @Sendable func load(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        guard try await store.count() == 0 else {
            throw APIError(status: .conflict, code: "not_empty",
                           message: "The sample diary is only for an empty diary, and this one has entries.")
        }
        let summary = try await store.importEntries(try ImportFile.entries(from: sample))
        return try JSONResponse.make(Loaded(imported: summary.imported), status: .created)
    }
}
