import Foundation

// Written by hand so that `deletedAt` is always present, as `null` while an entry is in the
// diary: clients (and the OpenAPI document) can count on every field.

extension Entry: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, title, body, createdAt, updatedAt, version, deletedAt, location, weather, tags, starred, photos, timeZone
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.diaryString, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(version, forKey: .version)
        try container.encode(deletedAt, forKey: .deletedAt)
        try container.encode(location, forKey: .location)
        try container.encode(weather.map(WeatherJSON.init), forKey: .weather)
        try container.encode(tags, forKey: .tags)
        try container.encode(starred, forKey: .starred)
        try container.encode(photos, forKey: .photos)
        try container.encode(timeZone, forKey: .timeZone)
    }
}

extension EntrySummary: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, title, excerpt, createdAt, updatedAt, version, deletedAt, weather, tags, starred, photo, timeZone
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.diaryString, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(excerpt, forKey: .excerpt)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(version, forKey: .version)
        try container.encode(deletedAt, forKey: .deletedAt)
        try container.encode(weather.map(WeatherJSON.init), forKey: .weather)
        try container.encode(tags, forKey: .tags)
        try container.encode(starred, forKey: .starred)
        // Only when there is one: most rows have none, and every list page would carry a null.
        try container.encodeIfPresent(photo?.hex, forKey: .photo)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
    }
}

/// Weather as JSON: the stored fields and the icon's name, so clients need no rule to find it.
struct WeatherJSON: Encodable {
    var provider: String
    var condition: String
    var description: String
    var isDay: Bool
    var temperature: Double?
    var icon: String

    init(_ weather: Weather) {
        provider = weather.provider
        condition = weather.condition.rawValue
        description = weather.description
        isDay = weather.isDay
        temperature = weather.temperatureCelsius
        icon = weather.icon
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(provider, forKey: .provider)
        try container.encode(condition, forKey: .condition)
        try container.encode(description, forKey: .description)
        try container.encode(isDay, forKey: .isDay)
        try container.encode(temperature, forKey: .temperature)
        try container.encode(icon, forKey: .icon)
    }

    enum CodingKeys: String, CodingKey { case provider, condition, description, isDay, temperature, icon }
}
