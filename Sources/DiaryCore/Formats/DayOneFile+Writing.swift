import Crypto
import Foundation

extension DayOneFile {
    /// A photo as Day One's export lists it: its file is `photos/<md5>.<type>` in the ZIP.
    public struct PhotoFile: Sendable {
        public let md5: String
        public let type: String
        public let width: Int
        public let height: Int

        public init(md5: String, type: String, width: Int, height: Int) {
            self.md5 = md5
            self.type = type
            self.width = width
            self.height = height
        }
    }

    /// The opening of `Journal.json`, before the first entry; entries are written one by one
    /// after it, as Diary's own export is.
    public static let header = "{\"metadata\":{\"version\":\"1.0\"},\"entries\":[\n"
    public static let separator = ",\n"
    public static let footer = "\n]}\n"

    /// Day One names a photo's file by the MD5 of its bytes.
    public static func md5(of data: Data) -> String {
        Hex.string(Insecure.MD5.hash(data: data))
    }

    /// One entry as Day One writes it. Its id is its uuid; its words are Markdown that shows
    /// them as typed, each photo placed at the end with its caption as the image's alt text
    /// (Day One has no field for a caption). `files` holds each photo's file, by its name; its
    /// zone is the writer's, or `zone` for an entry that has none.
    public static func record(for entry: Entry, files: [PhotoID: PhotoFile], zone: TimeZone = .current) -> Data {
        var photos: [[String: Any]] = []
        var placed: [(identifier: String, caption: String)] = []
        for (order, photo) in entry.photos.enumerated() {
            guard let file = files[photo.id] else { continue }
            let identifier = Self.uuid(ContentID.make(["dayone-photo", entry.id.diaryString, photo.id.hex], occurrence: 0))
            placed.append((identifier, photo.caption))
            photos.append(["identifier": identifier, "md5": file.md5, "type": file.type, "width": file.width, "height": file.height,
                           "orderInEntry": order])
        }
        var object: [String: Any] = [
            "uuid": Self.uuid(entry.id),
            "creationDate": Self.date(entry.createdAt), "modifiedDate": Self.date(entry.updatedAt),
            "timeZone": entry.timeZone ?? zone.identifier,
            "text": DayOneText.write(title: entry.title, body: entry.body, photos: placed),
            "tags": entry.tags, "starred": entry.starred,
        ]
        if !photos.isEmpty { object["photos"] = photos }
        if let location = entry.location {
            object["location"] = ["latitude": location.latitude, "longitude": location.longitude]
        }
        if let weather = entry.weather {
            var fields: [String: Any] = ["weatherCode": Self.code(for: weather), "conditionsDescription": weather.description,
                                         "weatherServiceName": weather.provider]
            if let degrees = weather.temperatureCelsius { fields["temperatureCelsius"] = degrees }
            object["weather"] = fields
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// An id as Day One writes one: 32 upper-case hex digits.
    static func uuid(_ id: UUID) -> String {
        id.diaryString.replacingOccurrences(of: "-", with: "").uppercased()
    }

    /// "2020-12-22T15:35:33Z" as Day One writes dates; with milliseconds when the moment has
    /// them, so that nothing Diary keeps is lost on the way.
    static func date(_ date: Date) -> String {
        let text = ISODate.string(from: date)
        return text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text
    }
}
