import DiaryCore
import NIOCore
import Synchronization

/// The first page of each diary's list as last answered, ready to send again while the diary
/// has not changed.
///
/// Every visit and every return to the list asks for that page. Reading and writing it costs
/// more than the rest of the request together (20 rows, their excerpts, their JSON, often gzip),
/// while checking the diary's change count is one small read. The count is kept in the database
/// with every write of an entry, so a change made by another process is seen as surely as one
/// made here.
final class FirstPageCache: Sendable {
    struct Key: Hashable {
        var owner: UserID
        var limit: Int
        var gzip: Bool
    }

    private struct Page {
        var changeCount: Int64
        var response: JSONResponse.Encoded
    }

    private let pages = Mutex<[Key: Page]>([:])
    /// Enough for every user of a large instance; past it, all are dropped and kept again as asked.
    private let capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// The page answered for `key` when the diary was at `changeCount`, if it still is.
    func page(for key: Key, at changeCount: Int64) -> JSONResponse.Encoded? {
        pages.withLock { pages in
            guard let page = pages[key], page.changeCount == changeCount else { return nil }
            return page.response
        }
    }

    /// Keeps `response` as the page for `key` at `changeCount`. The count must have been read
    /// before the page: then the page is never older than the count it is kept under.
    func keep(_ response: JSONResponse.Encoded, for key: Key, at changeCount: Int64) {
        pages.withLock { pages in
            if pages[key] == nil && pages.count >= capacity {
                // Rarely reached; dropping everything keeps this simple and the memory bounded.
                pages.removeAll(keepingCapacity: true)
            }
            pages[key] = Page(changeCount: changeCount, response: response)
        }
    }
}
