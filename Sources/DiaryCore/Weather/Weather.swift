import Foundation

/// The weather where and when an entry was written, as a provider reported it.
public struct Weather: Sendable, Hashable, Codable {
    public var provider: String
    public var condition: WeatherCondition
    /// In words, as the provider put it: "light rain", "overcast clouds".
    public var description: String
    /// Whether the sun was up: the icon shows a sun or a moon.
    public var isDay: Bool
    public var temperatureCelsius: Double?

    public init(provider: String, condition: WeatherCondition, description: String, isDay: Bool, temperatureCelsius: Double?) {
        self.provider = provider
        self.condition = condition
        self.description = description
        self.isDay = isDay
        // A provider's nonsense (1e300, below absolute zero) is no temperature: kept as none.
        self.temperatureCelsius = temperatureCelsius.flatMap { Self.temperatures.contains($0) ? $0 : nil }
    }

    /// The temperatures weather can have, with room to spare (Celsius).
    public static let temperatures: ClosedRange<Double> = -273.15...100

    /// The icon's name, shipped with the web app as `icons/weather/<icon>.svg`.
    public var icon: String { "\(condition.rawValue)-\(isDay ? "day" : "night")" }
}

/// The kinds of weather the diary tells apart; each has a day and a night icon.
public enum WeatherCondition: String, Sendable, Hashable, Codable, CaseIterable {
    case clear, clouds, rain, drizzle, snow, thunderstorm, mist

    /// For a terminal.
    public var emoji: String {
        switch self {
        case .clear: "☀️"
        case .clouds: "☁️"
        case .rain: "🌧️"
        case .drizzle: "🌦️"
        case .snow: "❄️"
        case .thunderstorm: "⛈️"
        case .mist: "🌫️"
        }
    }
}

/// Where an entry was written, never kept more precisely than about 1 km (two decimals):
/// enough for the weather, too coarse to find a house.
public struct Coordinates: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double

    /// Rounds to two decimals; `nil` when the values are not on Earth.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        self.latitude = (latitude * 100).rounded() / 100
        self.longitude = (longitude * 100).rounded() / 100
    }

    /// "37.57,126.98", as `diary new --location` takes it.
    public init?(text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}

extension Weather {
    /// How far from now an entry's moment may be for the weather of now to be its weather: an
    /// hour, either way. Weather changes over hours, not minutes: an entry dated a few minutes
    /// back (its writer put the time right, or it waited in an outbox on a train without a
    /// signal) still gets the weather of now, which is near enough the weather it was written
    /// in; one dated further back (written the next morning about the evening before) or ahead
    /// is backdated, and the weather of now would be the wrong weather.
    public static let nowSpan: TimeInterval = 3600

    /// Whether the weather of now is the weather of an entry written at `moment` (`nil`: now):
    /// within `nowSpan` of `now`, inclusive. A provider knows the weather of now, not of then:
    /// a backdated entry gets none, from the web app, the API and the command line alike
    /// (`Diary.create` says where to look it up, `Diary.attachWeather` checks again when it
    /// comes, and an edit that moves an entry further than this drops the weather it had).
    public static func ofNowFits(_ moment: Date?, now: Date = Date()) -> Bool {
        guard let moment else { return true }
        return abs(moment.timeIntervalSince(now)) <= nowSpan
    }
}
