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
