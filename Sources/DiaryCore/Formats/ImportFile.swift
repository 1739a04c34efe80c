import Foundation

/// Reads the files a diary can come from (`ImportFormat`), checking every record before any is
/// stored:
/// - the original iOS app's sample format, an array of `{title, body, created_at}` with
///   `created_at` in Unix seconds, whose entries get ids made from their content (`ContentID`);
/// - Diary's own export (`ExportFile`);
/// - Day One's JSON export (`DayOneFile`), jrnl's JSON export and journal file (`JrnlFile`).
public enum ImportFile {
    /// The entries of `data`, or an error that names the record and what is wrong with it.
    public static func entries(from data: Data, now: Date = Date()) throws(ImportError) -> [Entry] {
        try read(data, now: now).entries
    }

    /// `data` read as `format`, or as the format its content shows when `format` is `nil`.
    /// `zone` is the writer's, for a format that writes the hour without one (jrnl's), and
    /// `zoneName` its name as each of those entries keeps it (nil: none was said).
    public static func read(_ data: Data, as format: ImportFormat? = nil, now: Date = Date(),
                            zone: TimeZone = .current, zoneName: String? = ZoneName.ofThisComputer()) throws(ImportError) -> ImportedFile {
        if format == .jrnl || (format == nil && JrnlFile.isJournal(data)) {
            return try JrnlFile.readJournal(data, zone: zone, zoneName: zoneName)
        }
        try JSONCost.check(data)
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: escapingByteOrderMarks(in: data))
        } catch {
            // Text that does not even start as JSON is no format Diary reads.
            let start = data.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
            if format == nil, start != UInt8(ascii: "{"), start != UInt8(ascii: "[") { throw .unknownFormat }
            if let offset = LoneSurrogates.firstOffset(in: data) {
                throw .notJSON(reason: LoneSurrogates.reason(at: offset))
            }
            throw .notJSON(reason: Self.reason(of: error))
        }
        guard let found = ImportFormat.of(json: json) else {
            if let format { throw .notThisFormat(format) }
            throw .unknownFormat
        }
        if let format, format != found { throw .notThisFormat(format) }
        switch found {
        case .sample: return ImportedFile(format: .sample, entries: try sampleEntries(json as! [Any], now: now))
        case .diary: return ImportedFile(format: .diary, entries: try exportedEntries(json as! [String: Any], now: now))
        case .dayone: return try DayOneFile.read(json as! [String: Any])
        case .jrnlJSON: return try JrnlFile.readJSON(json as! [String: Any], zone: zone, zoneName: zoneName)
        case .jrnl: throw .notThisFormat(.jrnl)  // read above: not JSON
        }
    }

    static func sampleEntries(_ records: [Any], now: Date) throws(ImportError) -> [Entry] {
        var ids = ContentIDs()
        return try records.enumerated().map { index, record throws(ImportError) in
            var entry = try sampleEntry(record, number: index + 1, now: now)
            entry.id = ids.next([entry.title, entry.body, String(entry.createdAt.millisecondsSince1970)])
            return entry
        }
    }

    static func exportedEntries(_ object: [String: Any], now: Date) throws(ImportError) -> [Entry] {
        guard let records = object["entries"] as? [Any] else { throw .notThisFormat(.diary) }
        guard let version = object["version"].flatMap(Fields.wholeNumber), version >= 1 else {
            throw .badFormatVersion(object["version"].map(Fields.shown) ?? "missing")
        }
        if version > ExportFile.formatVersion { throw .newerVersion(version) }
        var seen: [UUID: Int] = [:]  // which record holds each id
        return try records.enumerated().map { index, record throws(ImportError) in
            let entry: Entry
            do throws(ImportError) {
                entry = try exportedEntry(record, number: index + 1, now: now)
            } catch {
                // Named by its id too, when it has one: a position alone is hard to find.
                guard let id = (record as? [String: Any])?["id"] as? String else { throw error }
                throw error.naming("id \(id.prefix(40))")
            }
            if let earlier = seen[entry.id] {
                throw .badRecord(index + 1, "its \"id\" \(entry.id.diaryString) is also record \(earlier)'s: each entry of a file must have an id of its own")
            }
            seen[entry.id] = index + 1
            return entry
        }
    }

    /// A record of the original app: `created_at` is Unix seconds (not seconds since 2001,
    /// the mistake that once dated the sample 2051).
    static func sampleEntry(_ record: Any, number: Int, now: Date) throws(ImportError) -> Entry {
        let fields = try Fields(record, number: number)
        let text = try fields.text()
        let created = try fields.unixSeconds("created_at")
        return Entry(title: text.title, body: text.body, createdAt: created, updatedAt: created)
    }

    static func exportedEntry(_ record: Any, number: Int, now: Date) throws(ImportError) -> Entry {
        let fields = try Fields(record, number: number)
        let photos = try fields.photos()
        let text = try fields.text(allowBlank: !photos.isEmpty)
        guard let idText = fields.values["id"] as? String, let id = UUID(uuidString: idText) else {
            throw .badRecord(number, "\"id\" must be a UUID such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427")
        }
        let created = try fields.date("createdAt", required: true)!
        let updated = try fields.date("updatedAt", required: false) ?? created
        let deleted = try fields.date("deletedAt", required: false)
        var version = 1
        if let value = fields.values["version"], !(value is NSNull) {
            guard let number = Fields.wholeNumber(value), (1...Entry.maximumVersion).contains(number) else {
                throw .badRecord(number, "\"version\" must be a whole number from 1 to \(Entry.maximumVersion.formatted()), not \(Fields.shown(value))")
            }
            version = number
        }
        return Entry(id: id, title: text.title, body: text.body, createdAt: created, updatedAt: updated,
                     version: version, deletedAt: deleted, location: try fields.location(), weather: try fields.weather(),
                     tags: try fields.tags(), starred: try fields.flag("starred"), photos: photos, timeZone: fields.timeZone())
    }

    /// `data` with every U+FEFF in it written as the escape `\ufeff`, but for a byte order mark
    /// at the very start of the file. JSONSerialization drops U+FEFF from the start of every
    /// string it reads as raw UTF-8 (it decodes them as it would a file), but keeps the escape:
    /// a title that began with one came back without it.
    static func escapingByteOrderMarks(in data: Data) -> Data {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let start = data.starts(with: mark) ? 3 : 0
        let found = data.withUnsafeBytes { bytes -> Bool in
            guard bytes.count >= 3 else { return false }
            for index in start..<(bytes.count - 2) where bytes[index] == 0xEF && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF {
                return true
            }
            return false
        }
        guard found else { return data }
        var out = Data(capacity: data.count + 16)
        var index = data.startIndex + start
        out.append(data[data.startIndex..<index])
        let escape = Data(#"\ufeff"#.utf8)
        while index < data.endIndex {
            if data[index] == 0xEF, data.index(index, offsetBy: 2, limitedBy: data.endIndex - 1) != nil,
               data[index + 1] == 0xBB, data[index + 2] == 0xBF {
                out.append(escape)
                index += 3
            } else {
                out.append(data[index])
                index += 1
            }
        }
        return out
    }

    private static func reason(of error: Error) -> String {
        let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        return description ?? "it is not valid JSON"
    }
}

/// The fields of one record, with checks that name the record: every format's reader checks
/// through here, so a rule is written once.
struct Fields {
    let values: [String: Any]
    let number: Int

    init(_ record: Any, number: Int) throws(ImportError) {
        guard let values = record as? [String: Any] else {
            throw .badRecord(number, "it is not an object with a title and a body")
        }
        self.values = values
        self.number = number
    }

    func string(_ key: String) throws(ImportError) -> String {
        switch values[key] {
        case nil, is NSNull: return ""
        case let text as String: return text
        default: throw .badRecord(number, "\"\(key)\" must be text")
        }
    }

    func text(allowBlank: Bool = false) throws(ImportError) -> EntryText {
        let title = try string("title")
        let body = try string("body")
        do {
            return try EntryText(title: title, body: body, allowBlank: allowBlank)
        } catch {
            throw .badRecord(number, error.description)
        }
    }

    /// The entry's tags (none when absent), as the diary's rules keep them.
    func tags() throws(ImportError) -> [String] {
        guard let value = values["tags"], !(value is NSNull) else { return [] }
        guard let list = value as? [Any], let tags = list as? [String] else {
            throw .badRecord(number, "\"tags\" must be a list of words, such as [\"travel\", \"여행\"]")
        }
        do {
            return try Tags.checked(tags)
        } catch {
            throw .badRecord(number, error.description)
        }
    }

    /// The entry's photos (none when absent), as an export names them: each by its name (the
    /// photo itself is in the ZIP export beside the JSON, or in the diary already).
    func photos() throws(ImportError) -> [EntryPhoto] {
        guard let value = values["photos"], !(value is NSNull) else { return [] }
        guard let list = value as? [Any] else {
            throw .badRecord(number, "\"photos\" must be a list such as [{\"id\": \"…64 hex digits…\", \"caption\": \"…\"}]")
        }
        var photos: [EntryPhoto] = []
        for (index, item) in list.enumerated() {
            guard let object = item as? [String: Any], let name = object["id"] as? String, let id = PhotoID(name) else {
                throw .badRecord(number, "photo \(index + 1) must have an \"id\" of 64 hex digits (the photo's SHA-256)")
            }
            let caption = object["caption"] as? String ?? ""
            let width = object["width"].flatMap(Self.wholeNumber) ?? 0, height = object["height"].flatMap(Self.wholeNumber) ?? 0
            photos.append(EntryPhoto(id: id, caption: caption, width: max(0, min(width, 1_000_000)), height: max(0, min(height, 1_000_000))))
        }
        do {
            return try EntryEdit.checkedPhotos(photos)
        } catch {
            throw .badRecord(number, error.description)
        }
    }

    /// The writer's time zone ("Asia/Seoul"; none when absent). A name this system's zone list
    /// does not know (a newer one, or a misspelling), or a value that is no name, is none rather
    /// than a refused file: the moment itself is exact without it. `ignored` says when that
    /// happened, for the report.
    func timeZone(ignored: inout Bool) -> String? {
        guard let value = values["timeZone"], !(value is NSNull) else { return nil }
        guard let name = value as? String, let zone = ZoneName.checked(name) else {
            ignored = (value as? String)?.isEmpty != true
            return nil
        }
        return zone
    }

    func timeZone() -> String? {
        var ignored = false
        return timeZone(ignored: &ignored)
    }

    /// true or false (false when absent).
    func flag(_ key: String) throws(ImportError) -> Bool {
        guard let value = values[key], !(value is NSNull) else { return false }
        guard let flag = value as? Bool else {
            throw .badRecord(number, "\"\(key)\" must be true or false, not \(Self.shown(value))")
        }
        return flag
    }

    func location() throws(ImportError) -> Coordinates? {
        guard let value = values["location"], !(value is NSNull) else { return nil }
        guard let object = value as? [String: Any], let latitude = object["latitude"] as? Double,
              let longitude = object["longitude"] as? Double, let location = Coordinates(latitude: latitude, longitude: longitude)
        else { throw .badRecord(number, "\"location\" must be {\"latitude\": -90…90, \"longitude\": -180…180}") }
        return location
    }

    /// Weather as the export writes it. An unknown condition (from a newer Diary) is left out
    /// rather than refusing the whole file.
    func weather() throws(ImportError) -> Weather? {
        guard let value = values["weather"], !(value is NSNull) else { return nil }
        guard let object = value as? [String: Any], let provider = object["provider"] as? String,
              let condition = object["condition"] as? String
        else { throw .badRecord(number, "\"weather\" must be an object with a provider and a condition") }
        var temperature: Double?
        if let value = object["temperature"], !(value is NSNull) {
            // Colder than absolute zero or hotter than any weather is not a temperature.
            guard let degrees = Self.number(value), Weather.temperatures.contains(degrees) else {
                throw .badRecord(number, "\"weather.temperature\" must be degrees Celsius from -273.15 to 100, not \(Self.shown(value))")
            }
            temperature = degrees
        }
        guard let known = WeatherCondition(rawValue: condition) else { return nil }
        return Weather(provider: provider, condition: known, description: object["description"] as? String ?? "",
                       isDay: object["isDay"] as? Bool ?? true, temperatureCelsius: temperature)
    }

    func date(_ key: String, required: Bool) throws(ImportError) -> Date? {
        switch values[key] {
        case nil, is NSNull:
            if required { throw .badRecord(number, "\"\(key)\" is missing: it must be a date such as 2020-12-22T15:35:33.000Z") }
            return nil
        case let text as String:
            switch ISODate.parse(text) {
            case .success(let date): return date
            case .failure(let error): throw .badRecord(number, error.describe(field: key, value: "\"\(text)\""))
            }
        default:
            throw .badRecord(number, "\"\(key)\" must be a date such as 2020-12-22T15:35:33.000Z")
        }
    }

    /// A moment given as Unix seconds (the original app's `created_at`), in years 1 to 9999.
    func unixSeconds(_ key: String) throws(ImportError) -> Date {
        let value = values[key]
        guard let value, !(value is NSNull) else {
            throw .badRecord(number, "\"\(key)\" is missing: it must be a number of seconds since 1970")
        }
        guard let seconds = Self.number(value) else {
            throw .badRecord(number, MomentError.notANumber.describe(field: key, value: Self.shown(value)))
        }
        switch EntryMoment.fromUnixSeconds(seconds) {
        case .success(let date): return date
        case .failure(let error): throw .badRecord(number, error.describe(field: key, value: Self.shown(value)))
        }
    }

    /// A JSON number as a Double; `nil` for anything else (a string, even "NaN"; true or false).
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    /// A JSON number that is a whole number Int can hold; `nil` for 1.5, 1e300, true, "3".
    static func wholeNumber(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        if let exact = value as? Int { return exact }
        let double = number.doubleValue
        guard double.isFinite, double == double.rounded(), abs(double) < 9.2e18 else { return nil }
        return Int(exactly: double)
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && (number == NSNumber(value: true) || number == NSNumber(value: false))
    }

    /// A value as an error message shows it: JSON-like, and short.
    static func shown(_ value: Any) -> String {
        let text: String
        switch value {
        case let string as String: text = "\"" + string + "\""
        case let number as NSNumber: text = isBoolean(number) ? (number.boolValue ? "true" : "false") : "\(number)"
        case is [Any]: text = "a list"
        case is [String: Any]: text = "an object"
        default: text = "\(value)"
        }
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

/// Why a file could not be imported. Nothing is stored when any record is wrong.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case notJSON(reason: String)
    case unknownFormat
    /// `--format` named a format the file is not.
    case notThisFormat(ImportFormat)
    /// A Day One export of a version other than 1.0.
    case dayOneVersion(String)
    case newerVersion(Int)
    /// The export's `version` is not a whole number of at least 1.
    case badFormatVersion(String)
    /// Record `number` (counting from 1) is wrong, for `reason`.
    case badRecord(Int, String)
    /// Record `number`, which the file names `name` (its id, or its date), is wrong, for `reason`.
    case badNamedRecord(Int, name: String, String)
    /// JSON of `values` values in `bytes` bytes, which would take `memory` bytes to read whole
    /// (`JSONCost`): more than a file of its size may.
    case tooDense(values: Int, bytes: Int, memory: Int)

    /// This error, naming its record as `name` too: the position alone is hard to find in a
    /// file of thousands.
    func naming(_ name: String) -> ImportError {
        guard case .badRecord(let number, let reason) = self else { return self }
        return .badNamedRecord(number, name: name, reason)
    }

    public var description: String {
        switch self {
        case .notJSON(let reason):
            "The file is not valid JSON (\(reason)); nothing was imported."
        case .unknownFormat:
            "The file is in no format Diary reads (\(ImportFormat.described)); nothing was imported."
        case .notThisFormat(let format):
            "The file is not what --format \(format.rawValue) reads; leave --format out to let Diary tell the format from the content. Nothing was imported."
        case .dayOneVersion(let version):
            "The file is a Day One export of version \(version); Diary reads version 1.0. Nothing was imported."
        case .newerVersion(let version):
            "The file is a Diary export of version \(version), newer than this Diary understands; update Diary. Nothing was imported."
        case .badFormatVersion(let value):
            "The file's \"version\" must be a whole number such as 1, not \(value); nothing was imported."
        case .badRecord(let number, let reason):
            "Record \(number) cannot be imported: \(reason.trimmingCharacters(in: CharacterSet(charactersIn: "."))). Nothing was imported."
        case .tooDense(let values, let bytes, let memory):
            Self.tooDense(values: values, bytes: bytes, memory: memory)
        case .badNamedRecord(let number, let name, let reason):
            "Record \(number) (\(name)) cannot be imported: \(reason.trimmingCharacters(in: CharacterSet(charactersIn: "."))). Nothing was imported."
        }
    }

    public var errorDescription: String? { description }

    private static func tooDense(values: Int, bytes: Int, memory: Int) -> String {
        let every = max(1, Int((Double(bytes) / Double(max(values, 1))).rounded()))
        return """
            The file is JSON of \(values.formatted()) values, about one \(every == 1 ? "a byte" : "every \(every) bytes"): read whole, it \
            would take about \(ByteCountFormatter.string(fromByteCount: Int64(memory), countStyle: .memory)) of memory, more than Diary \
            takes for a file of its size (\(JSONCost.factor) times it, and \(JSONCost.allowance >> 20) MB). A diary's entries are not that \
            dense: check that it is the file you meant, or import its records in smaller files. Nothing was imported.
            """
    }
}
