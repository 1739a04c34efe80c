@testable import DiaryCore
import Foundation
import Testing

@Suite("Tags")
struct TagsTests {
    @Test("A tag is tidied: NFC, no spaces around it, one between words, no leading # or @")
    func tidied() {
        #expect(Tags.tidied("  Trip \t to\u{00A0}Jeju  ") == "Trip to Jeju")
        #expect(Tags.tidied("#travel") == "travel")
        #expect(Tags.tidied("@work") == "work")
        #expect(Tags.tidied("e\u{301}te\u{301}") == "été")
    }

    @Test("Tags are compared without case, width or composition; the first spelling stays")
    func comparedWithoutCase() throws {
        #expect(Tags.key("Travel") == Tags.key("TRAVEL"))
        #expect(Tags.key("ｔｒａｖｅｌ") == Tags.key("travel"))
        #expect(Tags.key("Straße") == Tags.key("STRASSE"))
        #expect(Tags.key("여행") != Tags.key("travel"))
        #expect(try Tags.checked(["Travel", "travel", "TRAVEL", "여행"]) == ["Travel", "여행"])
    }

    @Test("Hashtags keep a tag of several words together")
    func hashtags() {
        #expect(Tags.hashtags(["travel", "Trip to Jeju", "여행"]) == "#travel #Trip-to-Jeju #여행")
    }

    @Test("An edit that changes nothing is no new version; one that does is the next")
    func edits() throws {
        let entry = Entry(title: "T", body: "B", createdAt: Date(timeIntervalSince1970: 0), tags: ["a"], starred: false)
        let now = Date(timeIntervalSince1970: 100)
        #expect(try EntryEdit(tags: ["a"], starred: false).applied(to: entry, at: now) == nil)
        let starred = try #require(try EntryEdit(starred: true).applied(to: entry, at: now))
        #expect(starred.version == 2 && starred.updatedAt == now && starred.tags == ["a"])
        let reordered = try #require(try EntryEdit(tags: ["b", "a"]).applied(to: entry, at: now))
        #expect(reordered.tags == ["b", "a"])
    }

    @Test("A list of tags far longer than an entry may keep is refused at once; repeats within it count once")
    func hugeLists() throws {
        #expect(try Tags.checked(Array(repeating: "a", count: 200)) == ["a"])
        #expect(throws: EntryError.tooManyTags(limit: 50)) { try Tags.checked(Array(repeating: "a", count: 1_000_000)) }
    }
}
