import DiaryCore
import Foundation
import Testing

/// What "backdated" means for the weather: an entry's moment more than an hour from now, either way.
@Suite("The weather of now fits an entry of now")
struct WeatherOfNowTests {
    let now = Date(timeIntervalSince1970: 1_764_400_000)

    @Test("Now, and up to an hour either side, is now; further is another time")
    func theHour() {
        #expect(Weather.ofNowFits(nil, now: now), "no moment given: written now")
        #expect(Weather.ofNowFits(now, now: now))
        #expect(Weather.ofNowFits(now.addingTimeInterval(-600), now: now), "ten minutes late from an outbox")
        #expect(Weather.ofNowFits(now.addingTimeInterval(-3_600), now: now), "an hour is still now")
        #expect(!Weather.ofNowFits(now.addingTimeInterval(-3_601), now: now))
        #expect(!Weather.ofNowFits(now.addingTimeInterval(-14 * 3_600), now: now), "the evening before")
        #expect(!Weather.ofNowFits(now.addingTimeInterval(2 * 3_600), now: now), "dated ahead")
    }
}
