/// Every `error` an API error body can carry: the one list, so a code cannot be misspelled in one
/// place or left out of the OpenAPI document's `ErrorCode` (a test holds the two to each other).
/// The raw value is the wire name; a client matches on it, so a name, once shipped, stays.
enum APIErrorCode: String, CaseIterable, Codable, Sendable {
    // The request itself.
    /// Something in the request cannot be read as the API takes it (a field's type, a filter…).
    case badRequest = "bad_request"
    /// A list's `cursor` that this server did not give out, or no longer reads.
    case invalidCursor = "invalid_cursor"
    /// A body that is not UTF-8 text.
    case notText = "not_text"
    /// A body of a type this address does not take.
    case unsupportedMediaType = "unsupported_media_type"
    /// A body, a file or a text over the size the API takes.
    case tooLarge = "too_large"
    /// No such entry, photo, device, token, or address.
    case notFound = "not_found"
    /// The address exists, but not with this method.
    case methodNotAllowed = "method_not_allowed"
    /// A change to an entry without `If-Match`.
    case preconditionRequired = "precondition_required"
    /// The request has no `Host` header, or two.
    case missingHost = "missing_host"
    /// The request names a host this server does not answer for.
    case unknownHost = "unknown_host"
    /// The request's headers or body did not arrive in time (written by `RequestDeadlines`).
    case requestTimeout = "request_timeout"

    // Entries.
    /// An entry with neither a title nor a body.
    case blankEntry = "blank_entry"
    /// A tag a diary does not keep, or too many tags.
    case badTags = "bad_tags"
    /// A date outside those an entry may have (years 1 to 9999).
    case badDate = "bad_date"
    /// An entry's photos: too many, one twice, a caption too long, or one never uploaded.
    case badPhotos = "bad_photos"
    /// The entry changed since the version the change was based on; the body holds it as it is.
    case conflict
    /// The entry has reached the highest version a diary counts to.
    case versionExhausted = "version_exhausted"
    /// The sample diary goes only into an empty diary.
    case notEmpty = "not_empty"

    // Accounts and sessions.
    /// No user: no session or token, or one that has ended.
    case unauthenticated
    /// A session's change without its CSRF token, or from another site.
    case csrf
    /// A wrong name or password at login.
    case badLogin = "bad_login"
    /// A wrong current password when changing it.
    case wrongPassword = "wrong_password"
    /// Something only a signed-in session (not a token) may do.
    case sessionRequired = "session_required"
    /// A name or password an account may not have, or a diary set up already.
    case badAccount = "bad_account"
    /// Too many wrong passwords: wait before trying again.
    case tooManyAttempts = "too_many_attempts"
    /// A setup from another computer without the setup code `diary serve` printed, or a wrong one.
    case setupCode = "setup_code"

    // Photos.
    /// Bytes that are not an image Diary keeps.
    case notAPhoto = "not_a_photo"
    /// An image whose header cannot be read, or a thumbnail that is not one.
    case badPhoto = "bad_photo"
    /// The user's photos would go over their quota.
    case overQuota = "over_quota"
    /// This user is sending as many photos at once as the server takes.
    case tooManyUploads = "too_many_uploads"

    // Imports and exports.
    /// A file of no format Diary imports.
    case unknownFormat = "unknown_format"
    /// A file of a known format that cannot be imported as it is.
    case badImport = "bad_import"
    /// An import is running already (this user's, or the server's one).
    case importRunning = "import_running"
    /// An export ZIP is being made already.
    case exportRunning = "export_running"

    // Search.
    /// A search text over the length the server searches.
    case queryTooLong = "query_too_long"
    /// A search text of more words than the server searches at once.
    case tooManyWords = "too_many_words"
    /// The search took longer than the server gives one.
    case searchTimeout = "search_timeout"
    /// The server is busy with other searches.
    case searchBusy = "search_busy"

    // The server.
    /// The server's disk is full; nothing of this change was saved.
    case diskFull = "disk_full"
    /// The storage cannot be used just now (a database restarting, busy, refusing writes).
    case storageUnavailable = "storage_unavailable"
    /// The server is stopping.
    case stopping
    /// Anything else: a bug, logged on the server.
    case internalError = "internal_error"
}
