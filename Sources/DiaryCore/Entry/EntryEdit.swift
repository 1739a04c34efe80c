import Foundation

/// What an edit of an entry changes: each part given, the rest left as it is. Its words, its
/// tags, its star, its moment and its photos are all the writer's, so a change to any of them
/// is a new version of the entry, and an edit based on an older version conflicts.
public struct EntryEdit: Sendable {
    public var text: EntryText?
    /// Checked (`Tags.checked`) when the edit is made.
    public private(set) var tags: [String]?
    public var starred: Bool?
    /// When the entry was written (backdated, say): checked against `EntryMoment`.
    public private(set) var moment: Date?
    /// Checked (`checkedPhotos`) when the edit is made; their sizes are the stored photos'
    /// (`Diary` fills them in).
    public internal(set) var photos: [EntryPhoto]?
    /// The writer's time zone (`ZoneName`): given with a new moment chosen on a clock, or when
    /// an entry's zone is put right. A name this system does not know is no zone (nil): a
    /// browser that cannot tell its zone says "Etc/Unknown", and a newer one may know a zone
    /// this system's list lacks; neither may cost the writer their words.
    public private(set) var timeZone: String?

    public init(text: EntryText? = nil, tags: [String]? = nil, starred: Bool? = nil, moment: Date? = nil,
                photos: [EntryPhoto]? = nil, timeZone: String? = nil) throws(EntryError) {
        self.text = text
        self.tags = try tags.map { tags throws(EntryError) in try Tags.checked(tags) }
        self.starred = starred
        self.photos = try photos.map { photos throws(EntryError) in try Self.checkedPhotos(photos) }
        self.timeZone = timeZone.flatMap(ZoneName.checked)
        if let moment {
            guard EntryMoment.contains(moment.millisecondsSince1970) else { throw .momentOutOfRange }
            self.moment = Date(millisecondsSince1970: moment.millisecondsSince1970)
        }
    }

    /// `photos` if an entry may hold them: at most `EntryPhoto.maximumPerEntry`, each once,
    /// captions within their limit.
    static func checkedPhotos(_ photos: [EntryPhoto]) throws(EntryError) -> [EntryPhoto] {
        guard photos.count <= EntryPhoto.maximumPerEntry else { throw .tooManyPhotos(limit: EntryPhoto.maximumPerEntry) }
        var seen = Set<PhotoID>()
        for (index, photo) in photos.enumerated() {
            guard seen.insert(photo.id).inserted else { throw .photoTwice(position: index + 1) }
            if photo.caption.unicodeScalars.count > EntryPhoto.maximumCaptionLength {
                throw .captionTooLong(position: index + 1, limit: EntryPhoto.maximumCaptionLength)
            }
        }
        return photos
    }

    /// The same edit with its tags spelled as the diary already spells them (`forms`: key → tag).
    func spelling(tagsAs forms: [String: String]) -> EntryEdit {
        var edit = self
        edit.tags = tags?.map { forms[Tags.key($0)] ?? $0 }
        return edit
    }

    /// `entry` with this edit made, as its next version at `now`; `nil` when the edit changes
    /// nothing (the same words, byte for byte, the same tags, star and moment).
    ///
    /// An entry moved to another moment (more than `Weather.nowSpan` away: written this morning,
    /// redated to the evening before) loses its weather, which was that of the moment it was
    /// written, not of the new one; a few minutes' correction keeps it.
    func applied(to entry: Entry, at now: Date) throws(EntryError) -> Entry? {
        var changed = entry
        if let text {
            changed.title = text.title
            changed.body = text.body
        }
        if let tags { changed.tags = tags }
        if let starred { changed.starred = starred }
        if let moment {
            changed.createdAt = moment
            if abs(moment.timeIntervalSince(entry.createdAt)) > Weather.nowSpan { changed.weather = nil }
        }
        if let photos { changed.photos = photos }
        if let timeZone { changed.timeZone = timeZone }
        let same = changed.title.utf8.elementsEqual(entry.title.utf8) && changed.body.utf8.elementsEqual(entry.body.utf8)
            && Tags.same(changed.tags, entry.tags) && changed.starred == entry.starred && changed.createdAt == entry.createdAt
            && EntryPhoto.same(changed.photos, entry.photos) && changed.timeZone == entry.timeZone
        if same { return nil }
        changed.updatedAt = Date(millisecondsSince1970: now.millisecondsSince1970)
        try changed.advanceVersion()
        return changed
    }
}
