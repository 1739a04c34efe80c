import Foundation

extension Diary {
    /// Renames the tag `tag` to `name` on every entry that has it, in the diary and in the
    /// trash: each such entry's next version (on SQLite, 500 entries a transaction, so that a
    /// tag of 30,000 entries holds up no one else's saves; a rename cut short is finished by
    /// asking again). When the diary already has
    /// `name` (in any spelling), the two become one, spelled `name` everywhere: renaming is
    /// also how tags are merged, and how a tag's spelling is changed ("travel" to "Travel").
    /// How many entries changed; none when no entry of the diary (the trash aside) has `tag`.
    public func renameTag(_ tag: String, to name: String) async throws -> Int {
        let old = try Self.oneTag(tag, "the tag to rename")
        let new = try Self.oneTag(name, "the new name")
        let keys: Set<String> = [Tags.key(old), Tags.key(new)]
        // A tag the diary does not have renames nothing (it would otherwise respell the new
        // name's entries, each a new version, for a typo); only a change of spelling, the same tag
        // by both names, goes on without it.
        if keys.count == 2, try await rows.tagSpellings(keys: [Tags.key(old)]).isEmpty { return 0 }
        let now = Date()
        return try await rows.changeEntries(taggedWith: keys) { entry in
            var renamed: [String] = []
            var seen = Set<String>()
            for written in entry.tags {
                let kept = keys.contains(Tags.key(written)) ? new : written
                if seen.insert(Tags.key(kept)).inserted { renamed.append(kept) }
            }
            return try EntryEdit(tags: renamed).applied(to: entry, at: now)
        }
    }

    /// `text` as one tag, tidied, or why it cannot be one (`what` names it in the message).
    public static func oneTag(_ text: String, _ what: String) throws(EntryError) -> String {
        do {
            if let tag = try Tags.checked([text]).first { return tag }
        } catch .badTag(_, let reason) {
            throw .badFilter("\(what.prefix(1).uppercased() + what.dropFirst()) cannot be a tag: \(reason). A tag is a word or a few, at most \(Tags.maximumLength) characters.")
        } catch {
            throw error
        }
        throw .badFilter("Give \(what).")
    }
}
