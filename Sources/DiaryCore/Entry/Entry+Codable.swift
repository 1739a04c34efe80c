import Foundation

// Written by hand so that `deletedAt` is always present, as `null` while an entry is in the
// diary: clients (and the OpenAPI document) can count on every field.

extension Entry: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, title, body, createdAt, updatedAt, version, deletedAt
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
    }
}

extension EntrySummary: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, title, excerpt, createdAt, updatedAt, version, deletedAt
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
    }
}
