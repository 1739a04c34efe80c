import DiaryCore
import NIOCore
import Synchronization

/// The first page of each diary's list as last answered, ready to send again while the diary
/// has not changed.
///
/// Every visit and every return to the list asks for that page. Reading and writing it costs
/// more than the rest of the request together (20 rows, their excerpts, their JSON, most often
/// Brotli),
/// while checking the diary's change count is one small read. The count is kept in the database
/// with every write of an entry, so a change made by another process is seen as surely as one
/// made here.
///
/// The pages kept are bounded in bytes, not in number: a page of long titles and excerpts can
/// weigh hundreds of kilobytes, and a thousand of them would be most of the server's memory.
/// Past `budget`, the least recently asked are let go (down to three quarters of it, so that
/// the sorting this takes is paid once per many pages kept); a page larger than a sixteenth of
/// the budget is never kept. A hit only stamps the page with a counter: no list to reorder.
final class FirstPageCache: Sendable {
    struct Key: Hashable {
        var owner: UserID
        var limit: Int
        /// The coding the client accepts: a page is kept once for each.
        var coding: JSONResponse.Coding
        /// On this day asked with it (the day, the time zone, the years), if it was.
        var onThisDay: String? = nil
    }

    private struct Page {
        var changeCount: Int64
        var response: JSONResponse.Encoded
        var bytes: Int
        var lastUsed: UInt64
    }

    private struct Pages {
        var byKey: [Key: Page] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// Brotli's quality for a page kept: 7 takes another 7 % off a page of 20 rows than the 5 of
    /// an answer made for one request, for about half a millisecond more, once a change of the
    /// diary. 10 and 11 would take 8 % more again, for ten to twenty times as long.
    static let brotliQuality: Int32 = 7

    /// What a kept page costs beyond its bytes: its key, its slot, the buffer's header.
    static let overheadBytes = 256

    private let pages = Mutex(Pages())
    /// The bytes all kept pages may take together.
    let budget: Int

    init(budget: Int = 16 * 1_048_576) {
        self.budget = budget
    }

    /// The bytes the kept pages take now (for tests).
    var bytesKept: Int { pages.withLock { $0.bytes } }

    /// The page answered for `key` when the diary was at `changeCount`, if it still is.
    func page(for key: Key, at changeCount: Int64) -> JSONResponse.Encoded? {
        pages.withLock { pages in
            guard let index = pages.byKey.index(forKey: key), pages.byKey.values[index].changeCount == changeCount else { return nil }
            pages.clock &+= 1
            pages.byKey.values[index].lastUsed = pages.clock
            return pages.byKey.values[index].response
        }
    }

    /// Keeps `response` as the page for `key` at `changeCount`. The count must have been read
    /// before the page: then the page is never older than the count it is kept under.
    func keep(_ response: JSONResponse.Encoded, for key: Key, at changeCount: Int64) {
        var response = response
        // A compressed page sits in a buffer sized for the uncompressed one: keep only its bytes.
        // (Buffers are allocated in powers of two, so up to twice the bytes is as tight as it gets.)
        if response.body.capacity > 2 * response.body.readableBytes {
            response.body = ByteBuffer(bytes: response.body.readableBytesView)
        }
        let bytes = response.body.capacity + Self.overheadBytes
        pages.withLock { pages in
            if let old = pages.byKey.removeValue(forKey: key) { pages.bytes -= old.bytes }
            guard bytes <= budget / 16 else { return }
            pages.clock &+= 1
            pages.byKey[key] = Page(changeCount: changeCount, response: response, bytes: bytes, lastUsed: pages.clock)
            pages.bytes += bytes
            if pages.bytes > budget { Self.letGo(&pages, downTo: budget / 4 * 3) }
        }
    }

    /// Lets the least recently asked pages go until those kept take at most `target` bytes.
    private static func letGo(_ pages: inout Pages, downTo target: Int) {
        let oldestFirst = pages.byKey.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, page) in oldestFirst {
            guard pages.bytes > target else { break }
            pages.byKey.removeValue(forKey: key)
            pages.bytes -= page.bytes
        }
    }
}
