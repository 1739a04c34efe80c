import DiaryCore
import HTTPTypes
import Synchronization

/// How many photos each user is sending at once. An upload holds a temporary file of up to
/// 20 MB and the work of hashing and cleaning it: one user's hundred uploads at once would fill
/// the disk and take the cores every other user's saves need. The web app sends one photo at a
/// time; four leave room for a second device and a retry whose first try has not yet ended.
final class UploadsInFlight: Sendable {
    static let perUser = 4
    private let counts = Mutex<[UserID: Int]>([:])

    /// `upload`'s result, run while `user` has fewer than `perUser` uploads running; else `429`.
    func run<T>(for user: UserID, _ upload: () async throws -> T) async throws -> T {
        let admitted = counts.withLock { counts in
            let running = counts[user, default: 0]
            guard running < Self.perUser else { return false }
            counts[user] = running + 1
            return true
        }
        guard admitted else {
            throw APIError(status: .tooManyRequests, code: "too_many_uploads",
                           message: "You are sending \(Self.perUser) photos at once already; send this one when one of them is done.",
                           headers: [.retryAfter: "1"])
        }
        defer {
            counts.withLock { counts in
                let running = counts[user, default: 1] - 1
                counts[user] = running > 0 ? running : nil
            }
        }
        return try await upload()
    }
}
