import DiaryCore
import Foundation
import Testing

private let seoul = Coordinates(latitude: 37.57, longitude: 126.98)!
private let rain = Weather(provider: "open-meteo", condition: .rain, description: "Slight rain", isDay: false, temperatureCelsius: 3.4)

/// The weather of now belongs to an entry written now: `Diary` decides it once, for the command
/// line and the server alike (`Weather.ofNowFits`), on every backend.
@Suite("Every store gives the weather of now only to an entry of now")
struct WeatherOfNowConformanceTests {
    @Test("A new entry with a place says to look up the weather; a backdated one, one without a place and a retry do not",
          arguments: StoreBackend.allCases)
    func createSaysWhereToLookItUp(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let text = try EntryText(title: "Rain", body: "")
        let now = try await store.create(text, id: UUID(), location: seoul)
        #expect(now.made && now.weatherPlace == seoul)
        let tenMinutesAgo = try await store.create(text, id: UUID(), location: seoul, at: Date().addingTimeInterval(-600))
        #expect(tenMinutesAgo.weatherPlace == seoul, "a few minutes back is still now")
        let lastNight = try await store.create(text, id: UUID(), location: seoul, at: Date().addingTimeInterval(-14 * 3600))
        #expect(lastNight.made && lastNight.weatherPlace == nil, "backdated")
        let tomorrow = try await store.create(text, id: UUID(), location: seoul, at: Date().addingTimeInterval(86_400))
        #expect(tomorrow.weatherPlace == nil, "dated ahead")
        let indoors = try await store.create(text, id: UUID())
        #expect(indoors.made && indoors.weatherPlace == nil)
        // A retry gets the entry the first try made, and no second lookup.
        let retry = try await store.create(try EntryText(title: "Rain again", body: ""), id: now.entry.id, location: seoul)
        #expect(!retry.made && retry.weatherPlace == nil && retry.entry == now.entry)
        let newer = try await store.create(try EntryText(title: "Rain", body: "all night"), id: now.entry.id, location: seoul, basedOn: 1)
        #expect(!newer.made && newer.weatherPlace == nil && newer.entry.body == "all night")
    }

    @Test("An entry moved more than an hour loses the weather of the moment it was written; a few minutes keep it",
          arguments: StoreBackend.allCases)
    func redatingDropsTheWeather(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let written = try await store.create(try EntryText(title: "Morning", body: "about last night"), id: UUID(), location: seoul).entry
        try await store.attachWeather(rain, to: written.id)
        let nudged = try await store.edit(id: written.id, try EntryEdit(moment: written.createdAt.addingTimeInterval(-600)), expecting: 1)
        #expect(nudged.weather == rain, "ten minutes back: still the weather it was written in")
        let redated = try await store.edit(id: written.id, try EntryEdit(moment: written.createdAt.addingTimeInterval(-12 * 3600)),
                                           expecting: 2)
        #expect(redated.weather == nil && redated.location == seoul)
        #expect(try await store.entry(id: written.id)?.weather == nil)
    }

    @Test("Weather that comes after its entry was backdated is not attached", arguments: StoreBackend.allCases)
    func lateWeatherForARedatedEntry(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let written = try await store.create(try EntryText(title: "Morning", body: ""), id: UUID(), location: seoul).entry
        // The writer redates it while the provider is still answering.
        _ = try await store.edit(id: written.id, try EntryEdit(moment: written.createdAt.addingTimeInterval(-2 * 86_400)), expecting: 1)
        try await store.attachWeather(rain, to: written.id)
        #expect(try await store.entry(id: written.id)?.weather == nil)
        // An entry of now takes it.
        let other = try await store.create(try EntryText(title: "Now", body: ""), id: UUID(), location: seoul).entry
        try await store.attachWeather(rain, to: other.id)
        #expect(try await store.entry(id: other.id)?.weather == rain)
    }
}
