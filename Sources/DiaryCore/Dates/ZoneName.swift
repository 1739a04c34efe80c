import Foundation

/// A time zone by its IANA name ("Asia/Seoul", "Europe/London"): how an entry keeps the zone its
/// writer's clock was in, and how a client names the zone its days are counted in.
public enum ZoneName {
    /// The longest name taken: the longest in the tz database has 32 characters.
    public static let maximumLength = 64

    /// The zone `name` names, or nil when it names none this system knows.
    ///
    /// A name is a path under the zone files' folder: only the letters of zone names are let
    /// through, and no step out of that folder (a client may know a newer name than this
    /// system's list, so the list itself is not the test).
    public static func zone(_ name: String) -> TimeZone? {
        guard !name.isEmpty, name.utf8.count <= maximumLength, !name.hasPrefix("/"), !name.contains("..") else { return nil }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || "0123456789_+-/".unicodeScalars.contains($0))
        }
        guard allowed, let zone = TimeZone(identifier: name) else { return nil }
        // Only the world's offsets, UTC−12 to UTC+14: Foundation also takes names such as
        // "GMT+1800", an offset no clock has, which would put a day 18 hours from its moment
        // (the days are found within a span that allows for real clocks only).
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_700_000_000))
        guard (-12 * 3600)...(14 * 3600) ~= offset else { return nil }
        return zone
    }

    /// The zone of this computer's clock as an entry keeps it: `TZ` when it names a zone (as
    /// given: "UTC" stays "UTC"), else the system's own zone; nil when `TZ` names none
    /// (Foundation then reads the clock as UTC, which no one chose).
    public static func ofThisComputer(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let name = environment["TZ"], !name.isEmpty { return checked(name) }
        return checked(TimeZone.current.identifier)
    }

    /// `name` as an entry keeps it, as it was given ("UTC" stays "UTC", which Foundation
    /// would name "GMT"), or nil when it names no zone.
    public static func checked(_ name: String) -> String? {
        zone(name) == nil ? nil : name
    }
}
