import DiaryCore
import Foundation
import Hummingbird

/// An error as the API answers it: a status and `{error, message}` (plus the current entry on
/// a conflict). HTTP statuses live here, not in the domain.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    /// A stable, machine-readable name: `not_found`, `conflict`, `blank_entry`…
    let code: APIErrorCode
    /// One sentence a person can act on.
    let message: String
    var current: Entry?
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse.make(Body(error: code, message: message, current: current), status: status, headers: headers)
    }

    private struct Body: Encodable {
        var error: APIErrorCode
        var message: String
        var current: Entry?
    }

    /// A write the storage refused for want of room: rolled back whole, so nothing stored is damaged.
    /// 507, not 503: the web app keeps the text and tries again, and the writer learns why.
    static let diskFull = APIError(
        status: .init(code: 507, reasonPhrase: "Insufficient Storage"), code: .diskFull,
        message: "The server's disk is full: this change was not saved, and everything saved before is intact. It can be saved once space is freed.")

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, code: .badRequest, message: message) }

    /// The API's answer for any error a handler throws.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as EntryError:
            return from(error)
        case let error as PhotoError:
            // What the bytes are not: not an image Diary keeps (415), or one whose header cannot
            // be read or claims more pixels than any camera makes (422).
            return APIError(status: error == .notAPhoto ? .unsupportedMediaType : .unprocessableContent,
                            code: error == .notAPhoto ? .notAPhoto : .badPhoto, message: error.description)
        case let error as DiaryPhotoError:
            switch error {
            case .tooLarge:
                return APIError(status: .contentTooLarge, code: .tooLarge, message: error.description)
            case .overQuota:
                return APIError(status: .contentTooLarge, code: .overQuota, message: error.description)
            case .notAThumbnail:
                return APIError(status: .unprocessableContent, code: .badPhoto, message: error.description)
            case .notFound:
                return .noSuchPhoto
            }
        case let error as HTTPError:
            return from(error)
        case let error as AccountError:
            return APIError(status: error == .alreadySetUp ? .conflict : .badRequest, code: .badAccount, message: error.messageForClients)
        case let error as any StorageFailure:
            // The operator's description names files and options; a client hears only what to do.
            if error.kind == .full { return .diskFull }
            // A busy database frees up in a moment; one being restarted takes a few seconds.
            return APIError(status: .serviceUnavailable, code: .storageUnavailable, message: error.kind.messageForClients,
                            headers: [.retryAfter: error.kind == .busy ? "1" : "5"])
        case is CancellationError:
            // A request still running when the server stops (a search, say) is cancelled.
            return APIError(status: .serviceUnavailable, code: .stopping, message: "The server is stopping; try again in a moment.",
                            headers: [.retryAfter: "1"])
        default:
            return APIError(status: .internalServerError, code: .internalError, message: "Something went wrong on the server; nothing was changed. Try again.")
        }
    }

    private static func from(_ error: EntryError) -> APIError {
        switch error {
        case .blank:
            APIError(status: .unprocessableContent, code: .blankEntry, message: error.description)
        case .badTag, .tooManyTags:
            APIError(status: .unprocessableContent, code: .badTags, message: error.description)
        case .momentOutOfRange:
            // A date is not a tag: it once shared `bad_tags`, which sent a client to the wrong field.
            APIError(status: .unprocessableContent, code: .badDate, message: error.description)
        case .badFilter:
            APIError(status: .badRequest, code: .badRequest, message: error.description)
        case .titleTooLong, .bodyTooLong:
            APIError(status: .contentTooLarge, code: .tooLarge, message: error.description)
        case .notFound, .ambiguousID:
            APIError(status: .notFound, code: .notFound, message: "There is no such entry.")
        case .versionExhausted:
            APIError(status: .conflict, code: .versionExhausted, message: error.description)
        case .diaryNotEmpty:
            APIError(status: .conflict, code: .notEmpty, message: error.description)
        case .conflict(_, let current):
            APIError(status: .conflict, code: .conflict, message: error.description, current: current)
        case .tooManyPhotos, .photoTwice, .captionTooLong, .photoNotStored:
            APIError(status: .unprocessableContent, code: .badPhotos, message: error.description)
        }
    }

    private static func from(_ error: HTTPError) -> APIError {
        switch error.status {
        case .contentTooLarge:
            APIError(status: .contentTooLarge, code: .tooLarge, message: APILimits.tooLargeMessage)
        case .notFound:
            APIError(status: .notFound, code: .notFound, message: "There is nothing at this address.")
        case .methodNotAllowed:
            APIError(status: .methodNotAllowed, code: .methodNotAllowed, message: "This address does not take that method.")
        default:
            APIError(status: error.status, code: error.status.code < 500 ? .badRequest : .internalError,
                     message: error.body ?? error.status.reasonPhrase)
        }
    }
}

/// Sizes the API refuses beyond, before reading further.
enum APILimits {
    /// A full title and body fit below this however they are escaped: JSON may spell each byte
    /// of a body of control characters as `\u0000`, six bytes, so 1 MiB of text can take 6 MiB.
    static let maximumRequestBytes = 7 * 1_048_576
    static let tooLargeMessage = "The request is larger than 7 MiB; an entry may have a title of 1,000 characters and a body of 1 MiB."
    static let defaultPageSize = 20
    static let maximumPageSize = 100
}
