import Foundation

/// Day One's JSON export, version 1.0 (`Journal.json`, alone or in the ZIP with `photos/`):
/// `{"metadata": {"version": "1.0"}, "entries": [{"uuid", "creationDate", "modifiedDate",
/// "timeZone", "text", "tags", "starred", "location", "weather", "photos", …}]}`.
///
/// An entry keeps Day One's `uuid` as its id (it is a UUID written without dashes): importing
/// the same journal again adds nothing, and a diary written out as Day One and read back is the
/// same entries. Whatever Diary has no place for is counted (`NotKept`), never dropped unsaid.
public enum DayOneFile {
    static func read(_ object: [String: Any]) throws(ImportError) -> ImportedFile {
        guard let records = object["entries"] as? [Any] else { throw .notThisFormat(.dayone) }
        let version = (object["metadata"] as? [String: Any])?["version"]
        guard let version = version as? String, version == "1.0" else {
            throw .dayOneVersion(version.map(Fields.shown) ?? "missing")
        }
        var file = ImportedFile(format: .dayone, entries: [])
        var seen: [UUID: Int] = [:]
        for (index, record) in records.enumerated() {
            let number = index + 1
            let fields = try Fields(record, number: number)
            let name = (fields.values["uuid"] as? String).map { "uuid \($0.prefix(40))" } ?? "no uuid"
            do throws(ImportError) {
                guard let found = try Self.entry(fields, notKept: &file.notKept) else { continue }
                let (entry, photos) = found
                if let earlier = seen[entry.id] {
                    throw ImportError.badRecord(number, "its uuid is also record \(earlier)'s: each entry of a journal has its own")
                }
                seen[entry.id] = number
                file.entries.append(entry)
                file.photos.append(photos)
            } catch {
                throw error.naming(name)
            }
        }
        return file
    }

    /// The entry of a record, and the photos it places; `nil` for one with no words and no
    /// photo (an entry of a recording alone, say), which the diary cannot keep: counted.
    private static func entry(_ fields: Fields, notKept: inout NotKept) throws(ImportError) -> (Entry, [SourcePhoto])? {
        let number = fields.number
        guard let uuid = fields.values["uuid"] as? String, let id = Self.id(uuid) else {
            throw .badRecord(number, "\"uuid\" must be 32 hex digits, as Day One writes it")
        }
        let created = try fields.date("creationDate", required: true)!
        let updated = try fields.date("modifiedDate", required: false) ?? created
        let (title, body, moments) = DayOneText.read(try fields.string("text"))

        // Each photo the text places, in its order; then any it does not place, in Day One's.
        var files: [String: String] = [:]  // identifier → the photo's file (its md5)
        var unplaced: [(order: Int, identifier: String)] = []
        for (position, item) in ((fields.values["photos"] as? [Any]) ?? []).enumerated() {
            guard let photo = item as? [String: Any], let identifier = photo["identifier"] as? String, let md5 = photo["md5"] as? String,
                  !md5.isEmpty, md5.allSatisfy(\.isHexDigit)
            else { throw .badRecord(number, "photo \(position + 1) must have an \"identifier\" and an \"md5\" of hex digits") }
            files[identifier] = md5.lowercased()
            unplaced.append((photo["orderInEntry"].flatMap(Fields.wholeNumber) ?? position, identifier))
            for (key, value) in photo where !Self.keptPhotoKeys.contains(key) && !isNothing(value) { notKept.add("photos.\(key)") }
        }
        var photos: [SourcePhoto] = []
        var placed = Set<String>()
        for moment in moments {
            guard moment.kind == "photo" else { continue }  // videos, audio, PDFs: counted with their fields
            guard let file = files[moment.identifier] else {
                notKept.add("photo the text places but the entry does not list")
                continue
            }
            if placed.insert(moment.identifier).inserted { photos.append(SourcePhoto(file: file, caption: moment.caption)) }
        }
        for (_, identifier) in unplaced.sorted(by: { $0.order < $1.order }) where !placed.contains(identifier) {
            photos.append(SourcePhoto(file: files[identifier]!, caption: ""))
        }
        guard photos.count <= EntryPhoto.maximumPerEntry else {
            throw .badRecord(number, EntryError.tooManyPhotos(limit: EntryPhoto.maximumPerEntry).description)
        }

        if title.isBlank && body.isBlank && photos.isEmpty {
            for (key, value) in fields.values where !Self.keptKeys.contains(key) && !isNothing(value) { notKept.add(key) }
            notKept.add("entry with no words and no photo")
            return nil
        }
        let text: EntryText
        do {
            text = try EntryText(title: title, body: body, allowBlank: !photos.isEmpty)
        } catch {
            throw .badRecord(number, error.description)
        }
        var location: Coordinates?
        if let place = fields.values["location"] as? [String: Any] {
            if place["latitude"] != nil || place["longitude"] != nil { location = try fields.location() }
            for (key, value) in place where key != "latitude" && key != "longitude" && !isNothing(value) { notKept.add("location.\(key)") }
        }
        let weather = Self.weather(fields.values["weather"], notKept: &notKept)
        var unknownZone = false
        let zone = fields.timeZone(ignored: &unknownZone)
        if unknownZone { notKept.add("timeZone (not a zone's name this system knows)") }
        for (key, value) in fields.values where !Self.keptKeys.contains(key) && !isNothing(value) { notKept.add(key) }
        let entry = Entry(id: id, title: text.title, body: text.body, createdAt: created, updatedAt: max(updated, created),
                          location: location, weather: weather, tags: try fields.tags(), starred: try fields.flag("starred"),
                          timeZone: zone)
        return (entry, photos)
    }

    /// A Day One uuid ("0B5F1E4A…", 32 hex digits; with dashes too) as an entry's id.
    static func id(_ text: String) -> UUID? {
        let digits = text.filter { $0 != "-" }
        guard digits.count == 32 else { return nil }
        let dashed = [digits.prefix(8), digits.dropFirst(8).prefix(4), digits.dropFirst(12).prefix(4), digits.dropFirst(16).prefix(4),
                      digits.dropFirst(20)].joined(separator: "-")
        return UUID(diaryString: dashed)
    }

    /// Day One's weather as the diary's: its code mapped to the icons Diary has (`-night` codes
    /// show the moon); a code Diary has no icon for is counted, not guessed.
    private static func weather(_ value: Any?, notKept: inout NotKept) -> Weather? {
        guard let object = value as? [String: Any] else { return nil }
        for (key, value) in object where !Self.keptWeatherKeys.contains(key) && !isNothing(value) { notKept.add("weather.\(key)") }
        let code = (object["weatherCode"] as? String ?? "").lowercased()
        let isDay = !code.hasSuffix("-night")
        let base = isDay ? code : String(code.dropLast("-night".count))
        guard let condition = Self.conditions[base] else {
            notKept.add("weather (code \"\(code.prefix(30))\", which Diary has no icon for)")
            return nil
        }
        return Weather(provider: object["weatherServiceName"] as? String ?? "Day One", condition: condition,
                       description: object["conditionsDescription"] as? String ?? "", isDay: isDay,
                       temperatureCelsius: object["temperatureCelsius"].flatMap(Fields.number))
    }

    /// Day One's weather codes (without `-night`), by the icon Diary shows for them.
    static let conditions: [String: WeatherCondition] = [
        "clear": .clear, "sunny": .clear, "mostly-clear": .clear, "mostly-sunny": .clear,
        "partly-cloudy": .clouds, "mostly-cloudy": .clouds, "cloudy": .clouds, "overcast": .clouds,
        "rain": .rain, "showers": .rain, "heavy-rain": .rain, "rain-showers": .rain,
        "drizzle": .drizzle, "light-rain": .drizzle,
        "snow": .snow, "light-snow": .snow, "heavy-snow": .snow, "snow-showers": .snow, "flurries": .snow, "sleet": .snow,
        "hail": .snow, "blizzard": .snow, "rain-snow": .snow,
        "thunderstorm": .thunderstorm, "thunderstorms": .thunderstorm, "tstorms": .thunderstorm,
        "fog": .mist, "mist": .mist, "haze": .mist, "smoke": .mist, "dust": .mist,
    ]

    /// The code Diary writes for its weather: Day One's own words for each icon.
    static func code(for weather: Weather) -> String {
        let base = switch weather.condition {
        case .clear: "clear"
        case .clouds: "cloudy"
        case .rain: "rain"
        case .drizzle: "drizzle"
        case .snow: "snow"
        case .thunderstorm: "thunderstorm"
        case .mist: "fog"
        }
        return weather.isDay ? base : base + "-night"
    }

    private static let keptKeys: Set<String> = [
        "uuid", "creationDate", "modifiedDate", "timeZone", "text", "tags", "starred", "location", "weather", "photos",
    ]
    private static let keptWeatherKeys: Set<String> = ["conditionsDescription", "temperatureCelsius", "weatherCode", "weatherServiceName"]
    /// A photo's file and place: what Diary needs to find it and lay it out (it reads the size
    /// from the photo itself).
    private static let keptPhotoKeys: Set<String> = ["identifier", "md5", "type", "width", "height", "orderInEntry", "fileSize"]

    /// Whether a field holds nothing a writer would miss: null, false, 0, "", [] or {}.
    static func isNothing(_ value: Any) -> Bool {
        switch value {
        case is NSNull: true
        case let text as String: text.isEmpty
        case let list as [Any]: list.isEmpty
        case let object as [String: Any]: object.isEmpty
        case let number as NSNumber: number.doubleValue == 0
        default: false
        }
    }

}
