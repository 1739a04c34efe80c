import Foundation

/// Diary's own JSON format: what `diary export` writes and `diary import` reads back.
///
/// ```json
/// {"format": "diary-export", "version": 1, "entries": [{"id": "…", "title": "…", "body": "…",
///   "createdAt": "2020-12-22T15:35:33.000Z", "updatedAt": "…", "version": 1, "deletedAt": null}]}
/// ```
public enum ExportFile {
    public static let format = "diary-export"
    public static let formatVersion = 1

    /// The opening of the file, before the first entry; entries are written one by one after it,
    /// so a 20-year diary is never held in memory whole.
    public static let header = "{\"format\":\"\(format)\",\"version\":\(formatVersion),\"entries\":[\n"
    public static let footer = "\n]}\n"
    public static let separator = ",\n"

    /// One entry as a line of the file.
    public static func line(for entry: Entry) throws -> Data {
        try DiaryJSON.encoder().encode(entry)
    }
}

/// JSON as every part of Diary writes it: the export, the API, `--json` output.
public enum DiaryJSON {
    /// Dates as ISO 8601 with milliseconds, in UTC, so files sort and diff well.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISODate.string(from: date))
        }
        return encoder
    }
}

/// ISO 8601 dates with milliseconds, the form every file and the API use.
public enum ISODate {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// Built from whole milliseconds by arithmetic: Foundation's format style truncates the binary
    /// fraction (.123 would come out as .122) and costs tens of microseconds a date, which a page
    /// of the list (three dates a row) would feel.
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        EntryJSONWriter.appendDate(date.millisecondsSince1970, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads "2020-12-22T15:35:33.000Z", with or without the fraction.
    public static func date(from string: String) -> Date? {
        (try? withFraction.parse(string)) ?? (try? withoutFraction.parse(string))
    }
}
