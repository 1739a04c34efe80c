import Foundation

/// jrnl's two files: the journal itself (`[2020-12-22 15:35] Title. Body @tag`, a ` *` after
/// the title starring it) and `jrnl --export json` (`{"tags": {"@tag": 1}, "entries": [{"title",
/// "body", "date", "time", "tags", "starred"}]}`).
///
/// jrnl writes wall-clock times without a zone: they are read in the writer's zone, the
/// computer's that imports (`TZ`) or the browser's that uploads, as jrnl itself shows them, and
/// each entry keeps that zone. Its records carry no ids, so each entry's id is
/// made from its moment and words and which occurrence of them it is (`ContentID`): the same
/// journal imported again adds nothing, and the journal file and its JSON export give the same
/// ids (unless the file's times have seconds, which the JSON leaves out).
public enum JrnlFile {
    /// Whether `data` starts as a journal does: a date in brackets, then a space.
    static func isJournal(_ data: Data) -> Bool {
        let head = data.prefix(64).drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        guard head.first == UInt8(ascii: "["), let close = head.firstIndex(of: UInt8(ascii: "]")) else { return false }
        return read(String(decoding: head[head.index(after: head.startIndex)..<close], as: UTF8.self), zone: .current) != .notADate
    }

    // MARK: The journal file

    /// The entries of a journal file, split as jrnl splits them.
    static func readJournal(_ data: Data, zone: TimeZone = .current, zoneName: String? = nil) throws(ImportError) -> ImportedFile {
        guard var text = String(data: data, encoding: .utf8) else { throw .notThisFormat(.jrnl) }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // jrnl on Windows writes "\r\n", which Swift reads as one Character, never "\n"; an old
        // Mac's editor ends lines with "\r" alone.
        if text.contains("\r") {
            text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        // An entry starts at a line "[date] ": the text before the next such line is its own
        // (a bracketed line that is no date is part of the text, as jrnl reads it).
        var records: [(moment: Date, dateText: String, text: Substring)] = []
        var start: String.Index?
        var moment = Date(), dateText = ""
        var clockChanges = ClockChanges()
        var lineStart = text.startIndex
        while lineStart < text.endIndex {
            let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            // (A date's brackets are near the line's start: a long line is not searched for them.)
            if line.hasPrefix("["), let close = line.prefix(40).firstIndex(of: "]"), line[line.index(after: close)...].hasPrefix(" "),
               case let read = Self.read(String(line[line.index(after: line.startIndex)..<close]), zone: zone), read != .notADate {
                guard case .moment(let found) = read else {
                    // A date jrnl would start an entry with, which no entry may have: refused, not
                    // joined to the entry before as if it were text.
                    let dateText = String(line[line.index(after: line.startIndex)..<close])
                    throw ImportError.badRecord(records.count + (start == nil ? 1 : 2),
                                                "its date is outside the dates an entry may have, \(EntryMoment.rangeDescription)")
                        .naming(dateText)
                }
                if let start { records.append((moment, dateText, text[start..<(lineStart == text.startIndex ? lineStart : text.index(before: lineStart))])) }
                start = line.index(close, offsetBy: 2)
                moment = found.moment
                clockChanges.count(found)
                dateText = String(line[line.index(after: line.startIndex)..<close])
            }
            lineStart = lineEnd == text.endIndex ? lineEnd : text.index(after: lineEnd)
        }
        if let start { records.append((moment, dateText, text[start...])) }
        guard !records.isEmpty else { throw .notThisFormat(.jrnl) }
        var ids = ContentIDs()
        var notKept = NotKept()
        let entries = try records.enumerated().map { index, record throws(ImportError) -> Entry? in
            // Longer than any entry's title and body together: refused before its words are read.
            guard record.text.utf8.count <= EntryText.maximumBodyBytes + 4 * EntryText.maximumTitleLength + 16 else {
                throw ImportError.badRecord(index + 1, EntryError.bodyTooLong(limitBytes: EntryText.maximumBodyBytes).description)
                    .naming(record.dateText)
            }
            let (title, body, starred) = Self.split(String(record.text))
            let tags = Self.tags(in: String(record.text))
            do throws(ImportError) {
                return try Self.entry(title: title, body: body, moment: record.moment, zone: zoneName, tags: tags, starred: starred,
                                      number: index + 1, ids: &ids, notKept: &notKept)
            } catch {
                throw error.naming(record.dateText)
            }
        }
        return ImportedFile(format: .jrnl, entries: entries.compactMap { $0 }, notKept: notKept, clockChanges: clockChanges)
    }

    /// jrnl's title, body and star: a first line ending in `*` stars the entry (the star is
    /// not part of the title); the title is the first line, or else the first sentence.
    static func split(_ text: String) -> (title: String, body: String, starred: Bool) {
        var text = text
        var starred = false
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.trimmingCharacters(in: .whitespaces).hasSuffix("*") {
            starred = true
            let rest = text.dropFirst(firstLine.count).drop { $0 == "\n" || $0 == "\r" }
            text = firstLine.trimmingCharacters(in: CharacterSet(charactersIn: "\n *")) + "\n" + rest
        }
        let (title, body) = FirstSentence.split(text)
        return (title, body, starred)
    }

    /// The tags jrnl finds in text: words after `@` or `#` (letters, digits, `_-+*#/`) at the
    /// start of the text or after white space, lower-cased as jrnl keeps them, in order, once each.
    static func tags(in text: String) -> [String] {
        var tags: [String] = []
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if (character == "@" || character == "#") && previous.isWhitespace {
                let word = text[text.index(after: index)...].prefix { $0.isLetter || $0.isNumber || "_-+*#/".contains($0) }
                if !word.isEmpty {
                    let tag = (String(character) + word).lowercased()
                    if !tags.contains(tag) { tags.append(tag) }
                    index = word.endIndex
                    previous = "x"
                    continue
                }
            }
            previous = character
            index = text.index(after: index)
        }
        return tags
    }

    // MARK: The JSON export

    static func readJSON(_ object: [String: Any], zone: TimeZone = .current, zoneName: String? = nil) throws(ImportError) -> ImportedFile {
        guard let records = object["entries"] as? [Any] else { throw .notThisFormat(.jrnlJSON) }
        var ids = ContentIDs()
        var notKept = NotKept()
        var clockChanges = ClockChanges()
        let entries = try records.enumerated().map { index, record throws(ImportError) -> Entry? in
            let fields = try Fields(record, number: index + 1)
            let day = fields.values["date"] as? String ?? "", time = fields.values["time"] as? String ?? ""
            do throws(ImportError) {
                let text = try fields.text(allowBlank: true)  // no words: counted by `entry`
                let moment: Date
                switch Self.read(day + " " + time, zone: zone) {
                case .moment(let found):
                    moment = found.moment
                    clockChanges.count(found)
                case .outOfRange:
                    throw ImportError.badRecord(index + 1, "its date is outside the dates an entry may have, \(EntryMoment.rangeDescription)")
                case .notADate:
                    throw ImportError.badRecord(index + 1, "\"date\" and \"time\" must be a day and a time such as \"2020-12-22\" and \"15:35\"")
                }
                guard let tags = (fields.values["tags"] ?? [String]()) as? [String] else {
                    throw ImportError.badRecord(index + 1, "\"tags\" must be a list of words, such as [\"@travel\"]")
                }
                for (key, value) in fields.values where !Self.keptKeys.contains(key) && !DayOneFile.isNothing(value) {
                    notKept.add(key)
                }
                return try Self.entry(title: text.title, body: text.body, moment: moment, zone: zoneName, tags: tags, starred: try fields.flag("starred"),
                                      number: index + 1, ids: &ids, notKept: &notKept)
            } catch {
                throw error.naming("\(day) \(time)")
            }
        }
        return ImportedFile(format: .jrnlJSON, entries: entries.compactMap { $0 }, notKept: notKept, clockChanges: clockChanges)
    }

    private static let keptKeys: Set<String> = ["title", "body", "date", "time", "tags", "starred"]

    /// One entry, checked by the diary's rules, its id made from its moment and words; nil
    /// (counted) for one with no words, which jrnl keeps for an entry of photos alone (Diary's
    /// jrnl export writes one so) and Diary cannot.
    private static func entry(title: String, body: String, moment: Date, zone: String?, tags: [String], starred: Bool, number: Int,
                              ids: inout ContentIDs, notKept: inout NotKept) throws(ImportError) -> Entry? {
        if title.isBlank && body.isBlank {
            notKept.add("entry with no words")
            return nil
        }
        let text: EntryText
        let checkedTags: [String]
        do {
            text = try EntryText(title: title, body: body)
            // A tag of marks alone ("@#") is no word the diary can keep: counted, not refused.
            let words = tags.filter { !Tags.tidied($0).isEmpty }
            notKept.add("tag without a letter", tags.count - words.count)
            checkedTags = try Tags.checked(words)
        } catch {
            throw .badRecord(number, error.description)
        }
        let id = ids.next(["jrnl", text.title, text.body, String(moment.millisecondsSince1970)])
        return Entry(id: id, title: text.title, body: text.body, createdAt: moment, tags: checkedTags, starred: starred,
                     timeZone: zone)
    }

    /// A jrnl date as a journal or its export writes it, in this computer's zone:
    /// "2020-12-22 15:35", "2020-12-22 15:35:00", or jrnl 4's default "2020-12-22 03:35:00 PM".
    static func moment(_ text: String, zone: TimeZone = .current) -> Date? {
        guard case .moment(let reading) = read(text, zone: zone) else { return nil }
        return reading.moment
    }

    /// What the text in a journal's brackets is.
    enum DateText: Equatable {
        case notADate
        /// A date, naming a moment outside years 1 to 9999 (`EntryMoment`).
        case outOfRange
        /// A date, as `zone`'s clock shows it: a time it skips or repeats is dated by
        /// `LocalTime`'s rule, as the command line's dates are.
        case moment(LocalTime.Reading)
    }

    static func read(_ text: String, zone: TimeZone) -> DateText {
        guard let local = localTime(text) else { return .notADate }
        let reading = local.reading(in: zone)
        return EntryMoment.contains(reading.moment.millisecondsSince1970) ? .moment(reading) : .outOfRange
    }

    /// The time `text` names on a clock, whichever year it falls in.
    private static func localTime(_ text: String) -> LocalTime? {
        let parts = text.split(separator: " ")
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        // A year of five digits is a date too (Diary's own jrnl export could write 10000-01-01
        // for the last moments of 9999 east of UTC): out of range, not text.
        guard day.count == 3, (10...11).contains(parts[0].count), (2...3).contains(clock.count), !day.contains(nil), !clock.contains(nil)
        else { return nil }
        var hour = clock[0]!
        if parts.count == 3 {
            let half = parts[2].uppercased()
            guard half == "AM" || half == "PM", (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (half == "PM" ? 12 : 0)
        }
        let (year, month, dayOfMonth) = (Int64(day[0]!), Int64(day[1]!), Int64(day[2]!))
        guard (1...99_999).contains(year), (1...12).contains(month), (1...ISODate.daysIn(month: month, of: year)).contains(dayOfMonth)
        else { return nil }
        // Counted as jrnl (Python's datetime) and ISO 8601 count days: by the Gregorian rules in
        // every year, not Foundation's calendar, which is Julian before 1582.
        let local = LocalDay(number: ISODate.daysSince1970(year: year, month: month, day: dayOfMonth))
        return LocalTime(day: local, hour: hour, minute: clock[1]!, second: clock.count == 3 ? clock[2]! : 0)
    }

    // MARK: Writing

    /// The opening of `jrnl --export json`'s shape; the tags, counted as the entries go by,
    /// close it (`footer`), so a diary is written a batch at a time.
    public static let header = "{\"entries\": [\n"
    public static let separator = ",\n"

    public static func footer(tags: [String: Int]) -> String {
        let object = (try? JSONSerialization.data(withJSONObject: tags, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return "\n], \"tags\": " + String(decoding: object, as: UTF8.self) + "}\n"
    }

    /// One entry as jrnl's export writes it, its date and time on its writer's clock (else in
    /// `zone`: jrnl keeps no zone, only the hour a writer saw; its JSON keeps minutes), its tags
    /// marked with `@`.
    public static func record(for entry: Entry, zone: TimeZone = .current) -> Data {
        var clock = entry.timeZone.flatMap(TimeZone.init(identifier:)) ?? zone
        let moment = entry.createdAt.millisecondsSince1970
        var day = LocalDay(moment: moment, in: clock)
        if !(1...9999).contains(day.year) {
            // The first or last hours of the years an entry may have, on a clock past them
            // (10000-01-01 east of UTC): written in UTC, a date jrnl (and Diary) can read.
            clock = TimeZone(identifier: "UTC")!
            day = LocalDay(moment: moment, in: clock)
        }
        // Days counted as the import counts them (Gregorian in every year), so that what is
        // written reads back as the same minute.
        let minutes = (moment + Int64(clock.secondsFromGMT(for: entry.createdAt)) * 1000 - day.number * 86_400_000) / 60_000
        let object: [String: Any] = [
            "title": entry.title, "body": entry.body,
            "date": day.iso,
            "time": String(format: "%02ld:%02ld", minutes / 60, minutes % 60),
            "tags": entry.tags.map { "@" + $0 }, "starred": entry.starred,
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}

/// Ids made from content for a file's records, telling identical records apart by how many
/// came before them (as the original app's sample needs).
struct ContentIDs {
    private var seen: [UUID: Int] = [:]

    mutating func next(_ parts: [String]) -> UUID {
        let first = ContentID.make(parts, occurrence: 0)
        let occurrence = seen[first, default: 0]
        seen[first] = occurrence + 1
        return occurrence == 0 ? first : ContentID.make(parts, occurrence: occurrence)
    }
}
