@testable import DiaryServer
import DiaryCore
import Hummingbird
import Testing

@Suite("The first pages kept in memory")
struct FirstPageCacheTests {
    func page(_ bytes: Int) -> JSONResponse.Encoded {
        JSONResponse.Encoded(body: ByteBuffer(repeating: 0x20, count: bytes), coding: .identity)
    }

    func key(_ owner: Int64) -> FirstPageCache.Key {
        FirstPageCache.Key(owner: UserID(rawValue: owner), limit: 20, coding: .identity)
    }

    @Test("However many diaries are visited, the pages kept stay within the budget in bytes")
    func bounded() {
        let cache = FirstPageCache(budget: 1_000_000)
        for owner in 1...2_000 {
            cache.keep(page(30_000), for: key(Int64(owner)), at: 1)
            #expect(cache.bytesKept <= 1_000_000)
        }
        #expect(cache.page(for: key(2_000), at: 1) != nil)
        #expect(cache.page(for: key(1), at: 1) == nil)
    }

    @Test("The pages let go are the least recently asked")
    func leastRecentlyUsed() {
        let cache = FirstPageCache(budget: 1_000_000)
        for owner in 1...25 { cache.keep(page(30_000), for: key(Int64(owner)), at: 1) }
        // The first diary is asked again and again; the others once.
        for owner in 26...80 {
            #expect(cache.page(for: key(1), at: 1) != nil, "asked before diary \(owner) was kept")
            cache.keep(page(30_000), for: key(Int64(owner)), at: 1)
        }
        #expect(cache.page(for: key(2), at: 1) == nil)
    }

    @Test("A page larger than a sixteenth of the budget is never kept; a changed diary's page is not answered")
    func tooLargeOrChanged() {
        let cache = FirstPageCache(budget: 1_600_000)
        cache.keep(page(200_000), for: key(1), at: 1)
        #expect(cache.page(for: key(1), at: 1) == nil)
        cache.keep(page(1_000), for: key(2), at: 1)
        #expect(cache.page(for: key(2), at: 2) == nil)
        // Kept again larger than allowed: the old page goes too, and its bytes with it.
        cache.keep(page(200_000), for: key(2), at: 2)
        #expect(cache.page(for: key(2), at: 1) == nil && cache.bytesKept == 0)
    }
}
