import ArgumentParser
import DiaryCore
import DiaryWeather
import Foundation

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new entry.",
        discussion: """
            With neither a title nor --body, the text is read from standard input when it is piped, \
            or written in $EDITOR when it is a terminal; its first line becomes the title.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry's title (one line).")
    var title: String?

    @Option(help: "The entry's body.")
    var body: String?

    @Option(help: ArgumentHelp("Where you are, to record the weather: kept to about 1 km.", valueName: "lat,lon"))
    var location: String?

    @Option(help: "The weather provider: open-meteo, openweather or off (default: $DIARY_WEATHER, else open-meteo).")
    var weather: String?

    func validate() throws {
        if let location, Coordinates(text: location) == nil {
            throw ValidationError("--location must be a latitude and a longitude, as in --location 37.57,126.98.")
        }
    }

    func run() async throws {
        let place = location.flatMap(Coordinates.init(text:))
        let provider = place == nil ? nil : try WeatherSettings.provider(choice: weather, environment: ProcessInfo.processInfo.environment)
        let text = try EntryInput.text(title: title, body: body, initial: "")
        let store = try await options.openDiary()
        // Saved first: the weather is a bonus that a slow or failing provider must not cost.
        let entry = try await store.create(text, id: UUID(), location: place)
        let shortID = entry.id.diaryString.prefix(EntryPrinter.shortIDLength)
        guard let place, let provider else {
            print("Saved \(shortID).")
            return
        }
        do {
            let weather = try await provider.currentWeather(at: place)
            try await store.attachWeather(weather, to: entry.id)
            // The provider's words, shown as the entry's are.
            print(EntryPrinter().shown("Saved \(shortID) (\(weather.condition.emoji) \(weather.description))."))
        } catch let error as WeatherError {
            print(EntryPrinter().shown("Saved \(shortID), without weather: \(error)."))
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
