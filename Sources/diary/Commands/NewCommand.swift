import ArgumentParser
import DiaryCore
import DiaryWeather
import Foundation

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new entry.",
        discussion: """
            The words need no quotes: diary new Rain. It rained all day. The first sentence (or \
            line) is the title and the rest the body, as in jrnl. A date in front, before a colon, \
            dates the entry: diary new "yesterday 21:30: Walked by the river". Text piped in is \
            the body (echo "…" | diary new Title). With no words at all, the text is read from \
            standard input when it is piped, or written in $EDITOR at a terminal; its first line \
            becomes the title. Dates are read in the local time zone (TZ).
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry's words: the first sentence is the title, the rest the body.")
    var words: [String] = []

    @Option(help: "The title, whole (then the words, or piped text, are the body).")
    var title: String?

    @Option(help: ArgumentHelp("The body; - reads it from standard input.", valueName: "text"))
    var body: String?

    @Option(help: ArgumentHelp("When it was written, in local time: \(WrittenDate.forms).", valueName: "date"))
    var date: String?

    @Option(help: ArgumentHelp("Where you are, to record the weather: kept to about 1 km.", valueName: "lat,lon"))
    var location: String?

    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag (repeat for more): --tag travel --tag 여행.", valueName: "tag"))
    var tags: [String] = []

    @Flag(help: "Star the entry: a favourite.")
    var star = false

    @Option(name: .customLong("photo"), help: ArgumentHelp(
        "A photo to add (repeat for more): JPEG, PNG, WebP, GIF or HEIC, at most 20 MB. Its place and camera details are taken out.",
        valueName: "file"))
    var photos: [String] = []

    @Option(help: "The weather provider: open-meteo, openweather or off (default: $DIARY_WEATHER, else open-meteo).")
    var weather: String?

    func validate() throws {
        if let location, Coordinates(text: location) == nil {
            throw ValidationError("--location must be a latitude and a longitude, as in --location 37.57,126.98.")
        }
        do {
            _ = try Tags.checked(tags)
        } catch {
            throw ValidationError("--tag: \(error)")
        }
        if let date, WrittenDate.parse(date) == nil {
            // Read in UTC it is a date: in this time zone it falls outside years 1 to 9999.
            if WrittenDate.parse(date, timeZone: TimeZone(identifier: "UTC")!) != nil {
                throw ValidationError("--date \"\(date)\" falls outside the years an entry may have (1 to 9999) in this time zone.")
            }
            throw ValidationError("--date \"\(date)\" is not a date Diary reads: give one such as \(WrittenDate.forms).")
        }
        if photos.count > EntryPhoto.maximumPerEntry {
            throw ValidationError("An entry may have at most \(EntryPhoto.maximumPerEntry) photos; \(photos.count) were given.")
        }
    }

    func run() async throws {
        let place = location.flatMap(Coordinates.init(text:))
        let (text, written) = try NewEntryWords(title: title, words: words, body: body, date: date, withPhotos: !photos.isEmpty).read()
        let moment = written?.moment
        let (store, kept) = try await options.openDiaryWithPhotos()
        // Every photo is kept before the entry is written: one that cannot be makes no entry.
        var added: [EntryPhoto] = []
        for path in photos {
            let photo = try await PhotoFile.add(path, to: kept)
            if !added.contains(where: { $0.id == photo.id }) { added.append(EntryPhoto(id: photo.id)) }
        }
        // A backdated entry gets no weather (`Weather.ofNowFits`): no provider is needed for it.
        let provider = place == nil || !Weather.ofNowFits(moment)
            ? nil : try WeatherSettings.provider(choice: weather, environment: ProcessInfo.processInfo.environment)
        // Saved first: the weather is a bonus that a slow or failing provider must not cost.
        let created = try await store.create(text, id: UUID(), location: place, at: moment, tags: tags, starred: star,
                                             photos: added.isEmpty ? nil : added, timeZone: ZoneName.ofThisComputer())
        let entry = created.entry
        if let local = written?.local, let notice = ClockNotice.sentence(for: local, in: .current) {
            Output.print(notice, to: .standardError)
        }
        let shortID = entry.id.diaryString.prefix(EntryPrinter.shortIDLength)
        let printer = EntryPrinter()
        let when = (moment.map { " for \(printer.dates.string(from: $0)) \(printer.time(of: $0))" } ?? "")
            + (added.isEmpty ? "" : added.count == 1 ? " with a photo" : " with \(added.count) photos")
        guard let place = created.weatherPlace, let provider else {
            Output.print("Saved \(shortID)\(when).")
            if location != nil, !Weather.ofNowFits(moment) { Output.print("No weather: it is known for now, not for the entry's date.") }
            return
        }
        // Said at once: the writer is not kept waiting on the provider to know the entry is safe.
        Output.print("Saved \(shortID)\(when).")  // unbuffered: a pipe's reader sees it now too
        do {
            let weather = try await WeatherLookup.within(WeatherLookup.patience) { try await provider.currentWeather(at: place) }
            try await store.attachWeather(weather, to: entry.id)
            // The provider's words, shown as the entry's are.
            Output.print("Weather: \(weather.condition.emoji) \(weather.description).")
        } catch let error as WeatherError {
            Output.print("No weather: \(error).")
        } catch is WeatherLookup.TooSlow {
            Output.print("No weather: the provider did not answer within \(WeatherLookup.patienceDescription).")
        }
    }
}

/// The words of a new or changed entry, from arguments or from a text.
enum EntryInput {
    /// From the arguments when there are any; else from standard input or the editor, where the
    /// first line is the title (the title rule moves everything after it into the body).
    static func text(title: String?, body: String?, initial: String) throws -> EntryText {
        if title != nil || body != nil {
            return try EntryText(title: title ?? "", body: body ?? "")
        }
        let written = try TextInput.read(initial: initial)
        if written.isBlank { throw InputError.nothingWritten }
        return try EntryText(title: written, body: "")
    }
}
