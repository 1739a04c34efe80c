import DiaryCore
import Foundation
import Testing

@Suite("Reading Day One and jrnl files, and telling formats apart")
struct ImportFormatsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")
    static let dayOne = fixtures.appendingPathComponent("dayone/Journal.json")

    @Test("A Day One journal: the first line is the title, escapes undone, photos taken out of the text, its uuid the id")
    func dayOneEntries() throws {
        let file = try ImportFile.read(try Data(contentsOf: Self.dayOne))
        #expect(file.format == .dayone)
        #expect(file.entries.count == 3)
        let jeju = file.entries[0]
        #expect(jeju.id.diaryString == "0b5f1e4a-9c3d-4e7f-8a1b-2c3d4e5f6a7b")
        #expect(jeju.title == "Jeju, day one")
        #expect(jeju.body == "We walked to Seongsan. It took 2 hours - worth it!\n\nDinner: *black pork*.")
        #expect(jeju.createdAt == ISODate.date(from: "2024-05-01T12:30:00Z"))
        #expect(jeju.updatedAt == ISODate.date(from: "2024-05-01T13:05:12Z"))
        #expect(jeju.tags == ["travel", "여행"] && jeju.starred)
        #expect(file.entries.allSatisfy { $0.timeZone == "Asia/Seoul" })
        #expect(jeju.location == Coordinates(latitude: 33.46, longitude: 126.94))
        #expect(jeju.weather == Weather(provider: "WeatherKit", condition: .clouds, description: "Partly Cloudy", isDay: true, temperatureCelsius: 18.5))
        #expect(file.photos[0] == [SourcePhoto(file: "5d41402abc4b2a76b9719d911017c592", caption: "")])

        let night = file.entries[1]
        #expect(night.title == "A quiet night in" && night.body == "Read until late. The moon was out.")
        #expect(night.weather?.condition == .clear && night.weather?.isDay == false)

        // Photos alone: no words, one photo to take from the ZIP; a wind icon Diary lacks.
        let photoOnly = file.entries[2]
        #expect(photoOnly.title == "" && photoOnly.body == "" && photoOnly.weather == nil)
        #expect(file.photos[2].map(\.file) == ["7215ee9c7d9dc229d2921a40e899ec5f"])
    }

    @Test("What Diary has no place for is counted, field by field")
    func dayOneNotKept() throws {
        let counts = try ImportFile.read(try Data(contentsOf: Self.dayOne)).notKept.counts
        #expect(counts["creationDevice"] == 3)
        // The writer's zone is kept now (`Entry.timeZone`), not counted.
        #expect(counts["timeZone"] == nil)
        #expect(counts["richText"] == 1 && counts["editingTime"] == 1 && counts["audios"] == 1)
        #expect(counts["location.placeName"] == 1 && counts["location.country"] == 1)
        #expect(counts["weather.windSpeedKPH"] == 1)
        #expect(counts["photos.cameraMake"] == 1)
        #expect(counts.keys.contains { $0.contains("wind") && $0.hasPrefix("weather (code") })
        // false, 0 and empty fields hold nothing a writer would miss.
        #expect(counts["isPinned"] == nil && counts["duration"] == nil)
    }

    @Test("A bad Day One entry names its position and its uuid, and nothing is read")
    func dayOneBadEntry() throws {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dayOne)) as! [String: Any]
        var entries = json["entries"] as! [[String: Any]]
        entries[1]["creationDate"] = "yesterday"
        json["entries"] = entries
        let data = try JSONSerialization.data(withJSONObject: json)
        let error = #expect(throws: ImportError.self) { try ImportFile.read(data) }
        #expect(error?.description.hasPrefix("Record 2 (uuid 1C6A2F5B0D4E5F809B2C3D4E5F6A7B8C) cannot be imported") == true, "\(String(describing: error))")
        #expect(error?.description.contains("creationDate") == true)
    }

    @Test("Diary's words written as Day One's Markdown read back exactly, captions and all")
    func dayOneTextRoundTrip() throws {
        let entry = Entry(title: "Notes (1/2) #not-a-heading", body: "- not a list\n1. not a number\n*not bold* \\ back\\slash [x](y)",
                          createdAt: Date(millisecondsSince1970: 1_714_566_600_123), tags: ["여행"], starred: true)
        let record = DayOneFile.record(for: entry, files: [:])
        let json = "{\"metadata\":{\"version\":\"1.0\"},\"entries\":[" + String(decoding: record, as: UTF8.self) + "]}"
        let back = try ImportFile.read(Data(json.utf8)).entries[0]
        #expect(back.title == entry.title && back.body == entry.body)
        #expect(back.id == entry.id && back.createdAt == entry.createdAt && back.tags == entry.tags && back.starred)
    }

    @Test("A Day One zone this system does not know, or one that is no name, is counted and left out")
    func dayOneZones() throws {
        func read(_ zone: String) throws -> ImportedFile {
            let json = #"{"metadata":{"version":"1.0"},"entries":[{"uuid":"0B5F1E4A9C3D4E7F8A1B2C3D4E5F6A7B","creationDate":"2024-05-01T12:30:00Z","text":"Hi","timeZone":"#
                + zone + "}]}"
            return try ImportFile.read(Data(json.utf8))
        }
        #expect(try read(#""Europe/London""#).entries[0].timeZone == "Europe/London")
        let unknown = try read(#""Mars/Olympus""#)
        #expect(unknown.entries[0].timeZone == nil && unknown.notKept.counts.keys.contains { $0.hasPrefix("timeZone") })
        #expect(try read("null").entries[0].timeZone == nil)
        let number = try read("9")
        #expect(number.entries[0].timeZone == nil && number.notKept.counts.keys.contains { $0.hasPrefix("timeZone") })
        // Offsets no clock has (Foundation takes "GMT+1800") are no zone either.
        #expect(try read(#""GMT+1800""#).entries[0].timeZone == nil)
    }

    @Test("An export writes each entry's own zone: Day One's timeZone, jrnl's hours on the writer's clock")
    func exportsWriteTheEntrysZone() throws {
        let entry = Entry(title: "Seoul", body: "", createdAt: ISODate.date(from: "2024-04-30T22:30:00Z")!, timeZone: "Asia/Seoul")
        let dayOne = try JSONSerialization.jsonObject(with: DayOneFile.record(for: entry, files: [:], zone: .gmt)) as! [String: Any]
        #expect(dayOne["timeZone"] as? String == "Asia/Seoul")
        var unzoned = entry
        unzoned.timeZone = nil
        let other = try JSONSerialization.jsonObject(with: DayOneFile.record(for: unzoned, files: [:], zone: .gmt)) as! [String: Any]
        #expect(other["timeZone"] as? String == TimeZone.gmt.identifier)
        let jrnl = try JSONSerialization.jsonObject(with: JrnlFile.record(for: entry, zone: .gmt)) as! [String: Any]
        #expect(jrnl["date"] as? String == "2024-05-01" && jrnl["time"] as? String == "07:30")
        let jrnlUnzoned = try JSONSerialization.jsonObject(with: JrnlFile.record(for: unzoned, zone: .gmt)) as! [String: Any]
        #expect(jrnlUnzoned["date"] as? String == "2024-04-30" && jrnlUnzoned["time"] as? String == "22:30")
    }

    @Test("jrnl's hours are read on the writer's clock, and each entry keeps that zone")
    func jrnlZone() throws {
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        let journal = try ImportFile.read(Data("[2024-05-01 07:30] Morning walk.\n".utf8), zone: seoul, zoneName: "Asia/Seoul")
        #expect(journal.entries[0].createdAt == ISODate.date(from: "2024-04-30T22:30:00Z"))
        #expect(journal.entries[0].timeZone == "Asia/Seoul")
        let json = #"{"tags": {}, "entries": [{"title": "Morning walk.", "body": "", "date": "2024-05-01", "time": "07:30", "tags": [], "starred": false}]}"#
        let exported = try ImportFile.read(Data(json.utf8), zone: seoul, zoneName: "Asia/Seoul")
        // Read in a zone no one named, the entries keep none.
        #expect(try ImportFile.read(Data(json.utf8), zone: seoul, zoneName: nil).entries[0].timeZone == nil)
        #expect(exported.entries[0].createdAt == journal.entries[0].createdAt && exported.entries[0].timeZone == "Asia/Seoul")
    }

    @Test("jrnl's JSON: local times read in the given zone, tags without their @, ids the same as the journal file's")
    func jrnlJSON() throws {
        let json = #"{"tags": {"@beach": 1}, "entries": [{"title": "Went to the beach.", "body": "It was sunny @beach", "date": "2024-05-01", "time": "21:30", "tags": ["@beach"], "starred": true}]}"#
        let file = try ImportFile.read(Data(json.utf8))
        #expect(file.format == .jrnlJSON)
        let entry = try #require(file.entries.first)
        #expect(entry.title == "Went to the beach." && entry.body == "It was sunny @beach" && entry.tags == ["beach"] && entry.starred)
        let journal = try ImportFile.read(Data("[2024-05-01 21:30] Went to the beach. It was sunny @beach\n".utf8))
        #expect(journal.format == .jrnl)
        let written = try #require(journal.entries.first)
        #expect(written.title == entry.title && written.body == entry.body && written.starred == false)
        #expect(written.createdAt == entry.createdAt)
    }

    @Test("A jrnl journal file: date lines start entries, a star after the title line stars it, exact duplicates stay apart")
    func jrnlJournal() throws {
        let text = """
            [2020-12-22 03:35:00 PM] Rain all day. Stayed in with a book @reading #home

            [2020-12-22 03:35:00 PM] Rain all day. Stayed in with a book @reading #home

            [2020-12-23 09:00:00 AM] A starred one *
            With a body.
            [not a date] stays in the body.

            """
        let file = try ImportFile.read(Data(text.utf8))
        #expect(file.format == .jrnl)
        #expect(file.entries.count == 3)
        #expect(file.entries[0].title == "Rain all day." && file.entries[0].body == "Stayed in with a book @reading #home")
        #expect(file.entries[0].tags == ["reading", "home"])
        #expect(file.entries[0].id != file.entries[1].id)
        #expect(file.entries[2].title == "A starred one" && file.entries[2].starred)
        #expect(file.entries[2].body == "With a body.\n[not a date] stays in the body.")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        #expect(calendar.dateComponents([.hour, .minute], from: file.entries[0].createdAt) == DateComponents(hour: 15, minute: 35))
        // The same file again: the same ids, so a second import adds nothing.
        #expect(try ImportFile.read(Data(text.utf8)).entries.map(\.id) == file.entries.map(\.id))
    }

    @Test("A jrnl journal written on Windows (CRLF) splits as one written elsewhere")
    func jrnlJournalCRLF() throws {
        let unix = "[2020-12-22 15:35] First. Body one\n\n[2020-12-23 09:00] Second *\nBody two\n"
        let windows = unix.replacingOccurrences(of: "\n", with: "\r\n")
        let read = try ImportFile.read(Data(windows.utf8)).entries
        #expect(read.map(\.title) == ["First.", "Second"] && read.map(\.body) == ["Body one", "Body two"] && read[1].starred)
        #expect(read.map(\.id) == (try ImportFile.read(Data(unix.utf8)).entries.map(\.id)))
    }

    @Test("A Day One entry with no words and no photo (a recording alone) is counted and left out, not refused")
    func dayOneEmptyEntry() throws {
        let json = #"{"metadata": {"version": "1.0"}, "entries": [{"uuid": "3E8C4B7D2F6071B2BD4E5F6A7B8C9DAE", "creationDate": "2024-05-04T00:00:00Z", "text": "", "audios": [{"identifier": "X"}]}, {"uuid": "4F9D5C8E3071B2C3CE5F6A7B8C9DAEBF", "creationDate": "2024-05-05T00:00:00Z", "text": "Kept\r\n\r\nwith a body"}]}"#
        let file = try ImportFile.read(Data(json.utf8))
        #expect(file.entries.map(\.title) == ["Kept"] && file.entries[0].body == "with a body")
        #expect(file.notKept.counts["entry with no words and no photo"] == 1 && file.notKept.counts["audios"] == 1)
    }

    @Test("The format comes from the content; --format that does not fit, and content of no format, say so")
    func detection() throws {
        #expect(try ImportFile.read(try Data(contentsOf: Self.fixtures.appendingPathComponent("seed-sample.json"))).format == .sample)
        #expect(throws: ImportError.notThisFormat(.dayone)) {
            try ImportFile.read(try Data(contentsOf: Self.fixtures.appendingPathComponent("seed-sample.json")), as: .dayone)
        }
        let unknown = #expect(throws: ImportError.self) { try ImportFile.read(Data("title,body\nx,y\n".utf8)) }
        #expect(unknown?.description.contains("Day One") == true && unknown?.description.contains("jrnl") == true)
        #expect(throws: ImportError.self) { try ImportFile.read(Data(#"{"entries": [{"x": 1}]}"#.utf8)) }
        #expect(throws: ImportError.dayOneVersion("\"2.0\"")) {
            try ImportFile.read(Data(#"{"metadata": {"version": "2.0"}, "entries": []}"#.utf8))
        }
    }

    @Test("Deeply nested JSON is refused as a clear error, not a crash")
    func deepJSON() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: ImportError.self) { try ImportFile.read(Data(deep.utf8)) }
    }
}
