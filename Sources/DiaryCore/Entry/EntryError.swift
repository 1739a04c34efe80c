import Foundation

/// What can go wrong with an entry, in words a writer can act on.
public enum EntryError: Error, Equatable, Sendable {
    /// Both the title and the body are blank: there is nothing to keep.
    case blank
    case titleTooLong(limit: Int)
    case bodyTooLong(limitBytes: Int)
    /// The tag at this position (from 1) of those given is not one a diary keeps, and why.
    case badTag(position: Int, String)
    case tooManyTags(limit: Int)
    /// A moment outside years 1 to 9999.
    case momentOutOfRange
    /// A list's filter that cannot be one, and why.
    case badFilter(String)
    /// No entry has this id (or id prefix).
    case notFound(String)
    /// More than one entry starts with this id prefix.
    case ambiguousID(String)
    /// The entry has reached `Entry.maximumVersion` (only an imported file can bring one close).
    case versionExhausted
    /// Entries were to go only into an empty diary (the sample), and this one has some.
    case diaryNotEmpty
    /// The change was based on `expected`, but the entry has moved on to `current`.
    case conflict(expected: Int, current: Entry)
    case tooManyPhotos(limit: Int)
    /// The photo at this position (from 1) is given twice.
    case photoTwice(position: Int)
    /// The caption of the photo at this position (from 1) is over the limit.
    case captionTooLong(position: Int, limit: Int)
    /// The diary holds no photo by this name: it must be uploaded first.
    case photoNotStored(String)
}

extension EntryError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .blank:
            "The entry is blank: write a title or a body."
        case .titleTooLong(let limit):
            "The title is too long: it may have at most \(limit.formatted()) characters."
        case .bodyTooLong(let limit):
            "The body is too long: it may have at most \(limit / 1_048_576) MiB (\(limit.formatted()) bytes) of text."
        case .badTag(let position, let reason):
            "Tag \(position) cannot be kept: \(reason). A tag is a word or a few, at most \(Tags.maximumLength) characters."
        case .tooManyTags(let limit):
            "An entry may have at most \(limit) tags."
        case .badFilter(let reason):
            reason
        case .momentOutOfRange:
            "The date is outside the dates an entry may have, \(EntryMoment.rangeDescription)."
        case .notFound(let id):
            "There is no entry with the id \(id)."
        case .ambiguousID(let prefix):
            "More than one entry has an id starting with \(prefix): type more of the id."
        case .versionExhausted:
            "The entry has reached the highest version a diary counts to (\(Entry.maximumVersion.formatted())); copy its text into a new entry."
        case .diaryNotEmpty:
            "The sample diary is only for an empty diary, and this one has entries."
        case .conflict(let expected, let current):
            "The entry was changed elsewhere: you edited version \(expected), and it is now at version \(current.version)."
        case .tooManyPhotos(let limit):
            "An entry may have at most \(limit) photos."
        case .photoTwice(let position):
            "Photo \(position) is in the entry twice: give each photo once."
        case .captionTooLong(let position, let limit):
            "The caption of photo \(position) is too long: it may have at most \(limit.formatted()) characters."
        case .photoNotStored(let id):
            "The diary has no photo \(id): upload it (POST /api/v1/photos) before adding it to an entry."
        }
    }

    public var errorDescription: String? { description }
}
