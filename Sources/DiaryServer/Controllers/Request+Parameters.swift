import DiaryCore
import Foundation
import Hummingbird

extension RequestContext {
    /// The `:id` of the path. An id that is not a UUID names no entry: 404, as for an unknown one.
    func entryID() throws -> UUID {
        guard let text = parameters.get("id"), let id = UUID(diaryString: text) else {
            throw EntryError.notFound(parameters.get("id") ?? "")
        }
        return id
    }

    /// The `:photo` of the path; a name that is not one is no photo: 404.
    func photoID() throws -> PhotoID {
        guard let text = parameters.get("photo"), let id = PhotoID(text) else { throw APIError.noSuchPhoto }
        return id
    }
}

extension Request {
    /// A query value decoded as a browser's form encodes it: "+" is a space.
    func formValue(_ name: String) -> String? {
        for pair in (uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { continue }
            guard parts.count > 1 else { return "" }
            // Most values (a limit, a cursor) have nothing to decode: skip Foundation's decoder.
            if !parts[1].utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) { return String(parts[1]) }
            let raw = parts[1].replacingOccurrences(of: "+", with: " ")
            return raw.removingPercentEncoding ?? raw
        }
        return nil
    }

    /// Every value of a query parameter given more than once (`tag=a&tag=b`), decoded.
    func formValues(_ name: String) -> [String] {
        (uri.query ?? "").split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { return nil }
            guard parts.count > 1 else { return "" }
            let raw = parts[1].replacingOccurrences(of: "+", with: " ")
            return raw.removingPercentEncoding ?? raw
        }
    }

    /// What the list is narrowed to: `tag` (repeated: each), `starred=true`, and `from` and
    /// `until` (ISO 8601 moments; `until` is not included).
    func entryFilter() throws -> EntryFilter {
        var starred = false
        switch formValue("starred") {
        case nil, "false": starred = false
        case "true": starred = true
        case let other?: throw APIError.badRequest("starred must be true or false, not \"\(other.prefix(40))\".")
        }
        func moment(_ name: String) throws -> Date? {
            guard let text = formValue(name) else { return nil }
            switch ISODate.parse(text) {
            case .success(let date): return date
            case .failure(let error):
                throw APIError.badRequest(error.describe(field: name, value: "\"\(text)\"") + ", such as 2024-05-01T00:00:00+09:00.")
            }
        }
        do {
            return try EntryFilter(tags: formValues("tag"), starredOnly: starred, from: try moment("from"), until: try moment("until"))
        } catch let error as EntryError {
            throw APIError.badRequest(error.description)
        }
    }

    /// `limit`, 1 to 100, 20 when absent.
    func pageSize() throws -> Int {
        guard let text = formValue("limit") else { return APILimits.defaultPageSize }
        guard let limit = Int(text), (1...APILimits.maximumPageSize).contains(limit) else {
            throw APIError.badRequest("limit must be a whole number from 1 to \(APILimits.maximumPageSize).")
        }
        return limit
    }

    /// `cursor`, as a previous page's `nextCursor` gave it.
    func cursor() throws -> EntryCursor? {
        guard let token = formValue("cursor") else { return nil }
        guard let cursor = EntryCursor(token: token) else {
            throw APIError(status: .badRequest, code: .invalidCursor,
                           message: "The cursor is not one this server gave; start again from the first page.")
        }
        return cursor
    }

    /// What `If-Match` asks for: `"3"`, `W/"3"` or `3` names the version the change is based on;
    /// `*` (HTTP's "whatever is there") knowingly replaces the current version.
    /// (Trimmed by hand: Foundation's `trimmingCharacters(in:)` was 2% of an autosave's time.)
    var ifMatch: IfMatch? {
        guard let header = headers[.ifMatch] else { return nil }
        var value = Substring(header)
        value = value.drop { $0 == " " || $0 == "\t" }
        while let last = value.last, last == " " || last == "\t" { value.removeLast() }
        if value == "*" { return .any }
        if value.hasPrefix("W/") { value.removeFirst(2) }
        value = value.drop { $0 == "\"" }
        while value.last == "\"" { value.removeLast() }
        // Exactly as the server writes versions: digits, no sign, no leading zero ("01" and "+1"
        // are not the ETag "1", as HTTP's strong comparison has it).
        guard value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), value.first != "0",
              let version = Int(value), (1...Entry.maximumVersion).contains(version)
        else { return .unreadable }
        return .version(version)
    }
}

enum IfMatch {
    case any
    case version(Int)
    /// Not a version this server gave (a word, a negative or huge number): a 400, not a guess.
    case unreadable

    var expectedVersion: Int? {
        if case .version(let version) = self { return version }
        return nil
    }
}
