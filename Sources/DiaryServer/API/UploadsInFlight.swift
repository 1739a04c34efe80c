import DiaryCore
import HTTPTypes
import Synchronization

/// How many uploads of one kind each user, and everyone together, are sending at once. A photo
/// upload holds a temporary file of up to 20 MB and the work of hashing and cleaning it; an
/// import holds a whole file and its photos: one user's hundred at once would fill the disk and
/// take the cores every other user's saves need. Beyond the limit, `429` with `Retry-After`.
final class UploadsInFlight: Sendable {
    /// The web app sends one photo at a time; four leave room for a second device and a retry
    /// whose first try has not yet ended.
    static let photos = UploadsInFlight(perUser: 4, overall: nil, code: .tooManyUploads,
                                        busy: "You are sending 4 photos at once already; send this one when one of them is done.")
    /// An import is a whole diary, parsed in memory: one at a time on the server (bench/RESULTS.md:
    /// a 2 GB Day One ZIP takes half a minute).
    static let imports = UploadsInFlight(perUser: 1, overall: 1, code: .importRunning,
                                         busy: "An import is running already; wait for it to finish, then import this file.",
                                         busyEverywhere: "The server is importing another diary; try again in a minute.")

    let perUser: Int
    let overall: Int?
    let code: APIErrorCode
    /// What this user hears when they have `perUser` running already.
    let busy: String
    /// What they hear when everyone together has `overall` running.
    let busyEverywhere: String
    private let counts = Mutex<[UserID: Int]>([:])

    init(perUser: Int, overall: Int?, code: APIErrorCode, busy: String, busyEverywhere: String? = nil) {
        self.perUser = perUser
        self.overall = overall
        self.code = code
        self.busy = busy
        self.busyEverywhere = busyEverywhere ?? busy
    }

    /// Holds a place for `user`, else throws `429`. The place is given back by calling `done`.
    func admit(_ user: UserID) throws -> Place {
        let refusal: String? = counts.withLock { counts in
            let running = counts[user, default: 0]
            guard running < perUser else { return busy }
            if let overall, counts.values.reduce(0, +) >= overall { return busyEverywhere }
            counts[user] = running + 1
            return nil
        }
        if let refusal {
            throw APIError(status: .tooManyRequests, code: code, message: refusal, headers: [.retryAfter: "1"])
        }
        return Place(of: user, in: self)
    }

    /// `upload`'s result, run while `user` has a place; else `429`.
    func run<T>(for user: UserID, _ upload: () async throws -> T) async throws -> T {
        let place = try admit(user)
        defer { place.done() }
        return try await upload()
    }

    fileprivate func release(_ user: UserID) {
        counts.withLock { counts in
            let running = counts[user, default: 1] - 1
            counts[user] = running > 0 ? running : nil
        }
    }

    /// A place held: given back once, by `done`.
    final class Place: Sendable {
        private let user: UserID
        private let uploads: UploadsInFlight
        private let given = Mutex(false)

        fileprivate init(of user: UserID, in uploads: UploadsInFlight) {
            self.user = user
            self.uploads = uploads
        }

        func done() {
            guard !given.withLock({ given in defer { given = true }; return given }) else { return }
            uploads.release(user)
        }
    }
}
