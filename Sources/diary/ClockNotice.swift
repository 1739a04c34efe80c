import DiaryCore
import Foundation

/// What `diary` says when a time it was given is one the clocks skip or show twice on its day
/// (`LocalTime`'s rule dated it): the moment it chose, and for a repeated time how to name the
/// other, so that no entry is found an hour off without a word.
enum ClockNotice {
    /// "02:30 does not happen on 2026-03-08 in America/New_York (the clocks go forward 1 hour):
    /// dated 03:30, UTC-4.", or nil when `zone`'s clock shows `local` once.
    static func sentence(for local: LocalTime, in zone: TimeZone) -> String? {
        let place = "on \(local.day.iso) in \(zone.identifier)"
        switch local.reading(in: zone) {
        case .once:
            return nil
        case .skipped(let moment, let forward):
            let shown = LocalTime(moment: moment, in: zone)
            let day = shown.day == local.day ? "" : shown.day.iso + " "
            return "\(local.clock) does not happen \(place) (the clocks go forward"
                + (forward > 0 ? " \(length(forward))" : "") + "): dated \(day)\(shown.clock), \(utc(zone, at: moment))."
        case .repeated(let first, let second):
            let back = zone.secondsFromGMT(for: first) - zone.secondsFromGMT(for: second)
            return "\(local.clock) happens twice \(place) (the clocks go back \(length(back))): "
                + "dated the first, \(utc(zone, at: first)); for the second, give \(local.day.iso)T\(local.clock)\(iso(zone, at: second))."
        }
    }

    /// The import report's line for the times of a file the clocks skip or repeat in `zone`.
    static func counted(_ changes: ClockChanges, in zone: TimeZone) -> String {
        func times(_ count: Int) -> String { count == 1 ? "1 time" : "\(count.formatted()) times" }
        var parts: [String] = []
        if changes.skipped > 0 {
            parts.append("\(times(changes.skipped)) the clocks skip \(changes.skipped == 1 ? "was" : "were") dated as far later as they go forward")
        }
        if changes.repeated > 0 {
            parts.append("\(times(changes.repeated)) they show twice \(changes.repeated == 1 ? "was" : "were") dated the first")
        }
        return "Clock changes in \(zone.identifier): " + parts.joined(separator: "; ") + "."
    }

    /// "1 hour", "30 minutes", "24 hours", "1 hour 30 minutes".
    private static func length(_ seconds: Int) -> String {
        let (hours, minutes) = (seconds / 3600, seconds / 60 % 60)
        let said = [(hours, "hour"), (minutes, "minute")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return said.joined(separator: " ")
    }

    /// "UTC-4", "UTC+10:30", "UTC".
    private static func utc(_ zone: TimeZone, at moment: Date) -> String {
        let seconds = zone.secondsFromGMT(for: moment)
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        return "UTC" + (seconds < 0 ? "-" : "+") + "\(minutes / 60)" + (minutes % 60 == 0 ? "" : String(format: ":%02ld", minutes % 60))
    }

    /// "-05:00", "+10:30": the offset as an ISO date gives it.
    private static func iso(_ zone: TimeZone, at moment: Date) -> String {
        let seconds = zone.secondsFromGMT(for: moment)
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02ld:%02ld", minutes / 60, minutes % 60)
    }
}
