import Foundation

/// Writes entries, list rows and pages as JSON, fast: a 20-year diary exports 100,000 entries,
/// and the list page is the server's busiest answer. `JSONEncoder` spends most of either on
/// boxing values and formatting dates; this appends bytes.
///
/// It writes exactly what `DiaryJSON.encoder()` would (keys sorted, slashes not escaped,
/// whole doubles without ".0"), which the tests check field by field.
public struct EntryJSONWriter {
    public init() {}

    /// An entry, as the export file and `GET /entries/{id}` carry it.
    public func append(_ entry: Entry, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"body":"#.utf8)
        Self.appendString(entry.body, to: &out)
        out.append(contentsOf: #","createdAt":"#.utf8)
        Self.appendQuotedDate(entry.createdAt, to: &out)
        out.append(contentsOf: #","deletedAt":"#.utf8)
        Self.appendQuotedDate(entry.deletedAt, to: &out)
        out.append(contentsOf: #","id":"#.utf8)
        Self.appendID(entry.id, to: &out)
        out.append(contentsOf: #","location":"#.utf8)
        if let location = entry.location {
            out.append(contentsOf: #"{"latitude":"#.utf8)
            Self.appendNumber(location.latitude, to: &out)
            out.append(contentsOf: #","longitude":"#.utf8)
            Self.appendNumber(location.longitude, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: #","photos":["#.utf8)
        for (index, photo) in entry.photos.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"caption":"#.utf8)
            Self.appendString(photo.caption, to: &out)
            out.append(contentsOf: #","height":"#.utf8)
            out.append(contentsOf: String(photo.height).utf8)
            out.append(contentsOf: #","id":""#.utf8)
            out.append(contentsOf: photo.id.hex.utf8)
            out.append(contentsOf: #"","width":"#.utf8)
            out.append(contentsOf: String(photo.width).utf8)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        Self.appendStarAndTags(starred: entry.starred, tags: entry.tags, to: &out)
        out.append(contentsOf: #","timeZone":"#.utf8)
        if let zone = entry.timeZone { Self.appendString(zone, to: &out) } else { out.append(contentsOf: "null".utf8) }
        Self.appendEnd(title: entry.title, updatedAt: entry.updatedAt, version: entry.version, weather: entry.weather, to: &out)
    }

    /// A row of a list: the title, the excerpt and the dates, without the body.
    public func append(_ summary: EntrySummary, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"createdAt":"#.utf8)
        Self.appendQuotedDate(summary.createdAt, to: &out)
        out.append(contentsOf: #","deletedAt":"#.utf8)
        Self.appendQuotedDate(summary.deletedAt, to: &out)
        out.append(contentsOf: #","excerpt":"#.utf8)
        Self.appendString(summary.excerpt, to: &out)
        out.append(contentsOf: #","id":"#.utf8)
        Self.appendID(summary.id, to: &out)
        if let photo = summary.photo {
            out.append(contentsOf: #","photo":""#.utf8)
            out.append(contentsOf: photo.hex.utf8)
            out.append(UInt8(ascii: "\""))
        }
        Self.appendStarAndTags(starred: summary.starred, tags: summary.tags, to: &out)
        // Only when known, as the encoder writes it: most rows of an older diary have none.
        if let zone = summary.timeZone {
            out.append(contentsOf: #","timeZone":"#.utf8)
            Self.appendString(zone, to: &out)
        }
        Self.appendEnd(title: summary.title, updatedAt: summary.updatedAt, version: summary.version, weather: summary.weather, to: &out)
    }

    /// A page of a list: `{"entries":[…],"nextCursor":"…"}`, the cursor `null` on the last page.
    public func append(_ page: EntryPage, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"entries":["#.utf8)
        for (index, summary) in page.entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(summary, to: &out)
        }
        out.append(contentsOf: #"],"nextCursor":"#.utf8)
        if let cursor = page.nextCursor {
            Self.appendString(cursor.token, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `"starred"` and `"tags"`, which sort between `"photos"` (or `"id"`, `"photo"`) and `"timeZone"`, `"title"`.
    private static func appendStarAndTags(starred: Bool, tags: [String], to out: inout [UInt8]) {
        out.append(contentsOf: (starred ? #","starred":true,"tags":["# : #","starred":false,"tags":["#).utf8)
        for (index, tag) in tags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(tag, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// The fields an entry and a list row end with, in the same sorted order, and the closing brace.
    private static func appendEnd(title: String, updatedAt: Date, version: Int, weather: Weather?, to out: inout [UInt8]) {
        out.append(contentsOf: #","title":"#.utf8)
        appendString(title, to: &out)
        out.append(contentsOf: #","updatedAt":"#.utf8)
        appendQuotedDate(updatedAt, to: &out)
        out.append(contentsOf: #","version":"#.utf8)
        out.append(contentsOf: String(version).utf8)
        out.append(contentsOf: #","weather":"#.utf8)
        appendWeather(weather, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Weather with its icon's name, keys sorted as the encoder sorts them.
    private static func appendWeather(_ weather: Weather?, to out: inout [UInt8]) {
        guard let weather else {
            out.append(contentsOf: "null".utf8)
            return
        }
        out.append(contentsOf: #"{"condition":"#.utf8)
        appendString(weather.condition.rawValue, to: &out)
        out.append(contentsOf: #","description":"#.utf8)
        appendString(weather.description, to: &out)
        out.append(contentsOf: #","icon":"#.utf8)
        appendString(weather.icon, to: &out)
        out.append(contentsOf: #","isDay":"#.utf8)
        out.append(contentsOf: (weather.isDay ? "true" : "false").utf8)
        out.append(contentsOf: #","provider":"#.utf8)
        appendString(weather.provider, to: &out)
        out.append(contentsOf: #","temperature":"#.utf8)
        if let temperature = weather.temperatureCelsius {
            appendNumber(temperature, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A double as the encoder writes it: the shortest form that reads back the same, "12" for 12.0.
    private static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    /// A JSON string: quotes, backslashes and control characters escaped as JSONEncoder does.
    /// Runs of ordinary bytes (nearly all of a diary) are found eight at a time and copied whole.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var runStart = 0
            var index = 0
            while index < count {
                if index + 8 <= count, !mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = base[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                    appendEscaped(byte, to: &out)
                    runStart = index + 1
                }
                index += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of eight bytes is a control character, a quote or a backslash (the classic
    /// "has a zero byte" bit tricks: exact, no false negatives).
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let hasControl = (word &- ones &* 0x20) & ~word & highs != 0
        return hasControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case 0x0A: out.append(contentsOf: #"\n"#.utf8)
        case 0x0D: out.append(contentsOf: #"\r"#.utf8)
        case 0x09: out.append(contentsOf: #"\t"#.utf8)
        case 0x08: out.append(contentsOf: #"\b"#.utf8)
        case 0x0C: out.append(contentsOf: #"\f"#.utf8)
        default:
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }
    }

    /// An id in lower-case hex with dashes, as `UUID.diaryString`, without building strings.
    static func appendID(_ id: UUID, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func appendQuotedDate(_ date: Date?, to out: inout [UInt8]) {
        guard let date else {
            out.append(contentsOf: "null".utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        appendDate(date.millisecondsSince1970, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// "2020-12-22T15:35:33.000Z" from Unix milliseconds, by the civil-from-days algorithm
    /// (Howard Hinnant's), for years 1 to 9999 (`EntryMoment`). A moment outside them (only a
    /// database changed by hand can hold one) is written at the nearest end of that range rather
    /// than trapping on a negative digit: a list or an export never dies on one row.
    static func appendDate(_ milliseconds: Int64, to out: inout [UInt8]) {
        let milliseconds = min(max(milliseconds, EntryMoment.earliest), EntryMoment.latest)
        let (days, dayMilliseconds) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = ISODate.civil(daysSince1970: days)
        appendDigits(year, count: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(day, count: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(dayMilliseconds / 3_600_000, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(dayMilliseconds / 60_000 % 60, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(dayMilliseconds / 1_000 % 60, count: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(dayMilliseconds % 1_000, count: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// `value` in exactly `count` digits, zero-padded, written in place (no array per number).
    private static func appendDigits(_ value: Int64, count: Int, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var rest = value
        for index in stride(from: start + count - 1, through: start, by: -1) {
            out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
