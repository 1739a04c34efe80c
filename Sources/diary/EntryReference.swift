import DiaryCore
import Foundation

/// What names an entry on the command line: its id or a unique prefix of it, `last` (the newest
/// entry), or `-1`, `-2`, … (the newest, the one before it, …). In the trash (`restore`) they
/// count the most recently deleted.
enum EntryReference {
    /// `-2` as the parser is given it: `Arguments.named` rewrites it, since ArgumentParser would
    /// take `-2` for an option.
    static let recentMark = "~"

    /// The commands whose argument names an entry.
    static let commands: Set<String> = ["show", "edit", "rm", "restore"]

    /// The entry `reference` names in `store`'s diary (or its trash).
    static func resolve(_ reference: String, in store: Diary, trash: Bool = false) async throws -> UUID {
        if reference.isBlank { throw ReferenceError.empty }
        guard let place = recentPlace(reference) else {
            // "-0" or a number too large to count: named as it was typed, not as the parser got it.
            if reference.hasPrefix(recentMark) { throw EntryError.notFound("-" + reference.dropFirst()) }
            return try await store.resolve(reference)
        }
        if place > Diary.largestPage { throw ReferenceError.tooFar(place) }
        let page = trash ? try await store.trash(after: nil, limit: place) : try await store.list(after: nil, limit: place)
        guard page.entries.count >= place else { throw ReferenceError.tooFew(asked: place, there: page.entries.count, trash: trash) }
        return page.entries[place - 1].id
    }

    /// 1 for `last`, N for `-N` (given as `~N`); `nil` for an id.
    private static func recentPlace(_ reference: String) -> Int? {
        if reference.lowercased() == "last" { return 1 }
        guard reference.hasPrefix(recentMark), let place = Int(reference.dropFirst()), place >= 1 else { return nil }
        return place
    }
}

enum ReferenceError: Error, CustomStringConvertible {
    case empty
    case tooFew(asked: Int, there: Int, trash: Bool)
    case tooFar(Int)

    var description: String {
        switch self {
        case .empty:
            "An empty id names no entry: give an entry's id (or the start of it), last, or -1, -2, … for the newest."
        case .tooFew(let asked, let there, let trash):
            switch (there, trash) {
            case (0, false): "The diary is empty, so there is no entry \(asked == 1 ? "last" : "-\(asked)")."
            case (0, true): "The trash is empty."
            default: "-\(asked) is past the end: the \(trash ? "trash" : "diary") has \(there) \(there == 1 ? "entry" : "entries")."
            }
        case .tooFar(let place):
            "-\(place) is further back than the newest \(Diary.largestPage) entries: name it by its id (diary list -n shows ids)."
        }
    }
}
