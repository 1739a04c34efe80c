import CompressNIO
import DiaryCore
import DiaryStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The entries API")
struct EntriesAPITests {
    @Test("A created entry reads back with its version as the ETag")
    func createAndGet() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Rain", body: "All day")
            let (response, entry) = try await client.send(.get, "/api/v1/entries/\(id)")
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(entry["title"] as? String == "Rain")
            #expect(entry["deletedAt"] is NSNull)
        }
    }

    @Test("An update with the current version succeeds; a stale one is a 409 carrying the current entry")
    func optimisticConcurrency() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Draft")
            let (first, updated) = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Tab one","body":""}"#, headers: [.ifMatch: "\"1\""])
            #expect(first.status == .ok)
            #expect(updated["version"] as? Int == 2)
            let (stale, conflict) = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Tab two","body":""}"#, headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .conflict)
            #expect(conflict["error"] as? String == "conflict")
            #expect((conflict["current"] as? [String: Any])?["title"] as? String == "Tab one")
            let (_, now) = try await client.send(.get, "/api/v1/entries/\(id)")
            #expect(now["title"] as? String == "Tab one")
        }
    }

    @Test("If-Match: * knowingly replaces whatever version is there")
    func ifMatchAny() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Draft")
            _ = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Two","body":""}"#, headers: [.ifMatch: "\"1\""])
            let (response, entry) = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Three","body":""}"#, headers: [.ifMatch: "*"])
            #expect(response.status == .ok)
            #expect(entry["version"] as? Int == 3)
        }
    }

    @Test("If-Match names the version quoted, weak or bare, with spaces around it", arguments: [
        ("\"1\"", "\"1\""), ("W/\"1\"", "W/\"1\""), ("1", "1"), ("  \"1\" ", " W/\"1\"\t"),
    ])
    func ifMatchForms(current: String, stale: String) async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Draft")
            let (first, updated) = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Two","body":""}"#, headers: [.ifMatch: current])
            #expect(first.status == .ok)
            #expect(updated["version"] as? Int == 2)
            let (second, _) = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Three","body":""}"#, headers: [.ifMatch: stale])
            #expect(second.status == .conflict)
        }
    }

    @Test("An update's body: escapes read, other fields of any kind ignored, a wrong type or a missing field named", arguments: [
        (#"{"title":"\"Q\" \u00e9","body":"a\nb 😀"}"#, 200, "\"Q\" é"),
        (#"{"title":"Kept","body":"","location":{"latitude":1}}"#, 200, "Kept"),
        (#"{"title":7,"body":""}"#, 400, "\"title\" has the wrong type"),
        (#"{"title":"No body"}"#, 400, "\"body\" is missing."),
    ])
    func updateBodies(json: String, status: Int, expected: String) async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Draft")
            let (response, answer) = try await client.send(.put, "/api/v1/entries/\(id)", json: json, headers: [.ifMatch: "*"])
            #expect(response.status.code == status)
            if status == 200 {
                #expect(answer["title"] as? String == expected)
            } else {
                #expect((answer["message"] as? String)?.hasPrefix(expected) == true)
            }
        }
    }

    @Test("An update without If-Match is refused with 428")
    func ifMatchRequired() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Draft")
            let (response, error) = try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"x","body":""}"#)
            #expect(response.status == .preconditionRequired)
            #expect(error["error"] as? String == "precondition_required")
        }
    }

    @Test("Bad requests get the right 4xx with {error, message}", arguments: [
        (#"{"title": "#, HTTPResponse.Status.badRequest, "bad_request"),
        (#"{"title": 5, "body": ""}"#, .badRequest, "bad_request"),
        (#"{"title": " ", "body": "\n"}"#, .unprocessableContent, "blank_entry"),
        ("{\"title\": \"\(String(repeating: "a", count: 1_001))\", \"body\": \"\"}", .contentTooLarge, "too_large"),
    ])
    func badRequests(json: String, status: HTTPResponse.Status, code: String) async throws {
        try await withDiaryAPI { client in
            let (response, error) = try await client.send(.post, "/api/v1/entries", json: json)
            #expect(response.status == status)
            #expect(error["error"] as? String == code)
            #expect((error["message"] as? String)?.isEmpty == false)
            let (_, page) = try await client.send(.get, "/api/v1/entries")
            #expect((page["entries"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A body over 1 MiB is refused with 413, and nothing is stored")
    func oversizedBody() async throws {
        try await withDiaryAPI { client in
            let json = "{\"title\": \"\", \"body\": \"\(String(repeating: "a", count: 1_048_577))\"}"
            let (response, error) = try await client.send(.post, "/api/v1/entries", json: json)
            #expect(response.status == .contentTooLarge)
            #expect((error["message"] as? String)?.contains("1 MiB") == true)
        }
    }

    @Test("Text that is not JSON is refused with 415")
    func notJSON() async throws {
        try await withDiaryAPI { client in
            let (response, _) = try await client.send(.post, "/api/v1/entries", json: "title=x", headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(response.status == .unsupportedMediaType)
        }
    }

    @Test("Unknown and malformed ids are 404 with JSON")
    func unknownIDs() async throws {
        try await withDiaryAPI { client in
            for uri in ["/api/v1/entries/\(UUID().uuidString)", "/api/v1/entries/not-an-id", "/api/v1/nothing-here"] {
                let (response, error) = try await client.send(.get, uri)
                #expect(response.status == .notFound)
                #expect(error["error"] as? String == "not_found")
            }
        }
    }

    @Test("A repeated create with basedOn gives the entry its newer words; without, answers it unchanged")
    func repeatedCreateBasedOnFirstVersion() async throws {
        try await withDiaryAPI { client in
            let id = UUID().diaryString
            let (created, _) = try await client.send(.post, "/api/v1/entries", json: #"{"id":"\#(id)","title":"Closed tab","body":""}"#)
            #expect(created.status == .created)
            let (same, unchanged) = try await client.send(.post, "/api/v1/entries", json: #"{"id":"\#(id)","title":"Closed tab","body":"Lost?"}"#)
            #expect(same.status == .ok && unchanged["body"] as? String == "" && unchanged["version"] as? Int == 1)
            let (updated, entry) = try await client.send(
                .post, "/api/v1/entries", json: #"{"id":"\#(id)","title":"Closed tab","body":"Written just before closing.","basedOn":1}"#)
            #expect(updated.status == .ok)
            #expect(entry["body"] as? String == "Written just before closing." && entry["version"] as? Int == 2)
            let (_, stored) = try await client.send(.get, "/api/v1/entries/\(id)")
            #expect(stored["body"] as? String == "Written just before closing.")
        }
    }

    @Test("A known address asked with a method it does not take is 405, with the methods it takes")
    func methodNotAllowed() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Kept")
            for (method, uri, allow) in [(HTTPRequest.Method.post, "/api/v1/entries/\(id)", "DELETE, GET, HEAD, PATCH, PUT"),
                                         (.delete, "/api/v1/entries", "GET, HEAD, POST"),
                                         (.post, "/api/v1/search", "GET, HEAD")] {
                let (response, error) = try await client.send(method, uri)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                #expect(error["error"] as? String == "method_not_allowed")
                #expect((error["message"] as? String)?.isEmpty == false)
            }
            // The entry is untouched, and an unknown address is still 404.
            let (kept, entry) = try await client.send(.get, "/api/v1/entries/\(id)")
            #expect(kept.status == .ok && entry["title"] as? String == "Kept")
            let (unknown, _) = try await client.send(.patch, "/api/v1/nothing-here")
            #expect(unknown.status == .notFound)
        }
    }

    @Test("Pages follow the cursor, newest first, each entry once")
    func pages() async throws {
        try await withDiaryAPI { client in
            var created: [String] = []
            for number in 0..<7 { created.append(try await client.create(title: "Entry \(number)")) }
            var seen: [String] = []
            var uri = "/api/v1/entries?limit=3"
            while true {
                let (_, page) = try await client.send(.get, uri)
                seen += ((page["entries"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
                guard let next = page["nextCursor"] as? String else { break }
                uri = "/api/v1/entries?limit=3&cursor=\(next)"
            }
            #expect(seen == created.reversed())
            for cursor in ["garbage", "", "12.", "%2012.3"] {
                let (bad, error) = try await client.send(.get, "/api/v1/entries?cursor=\(cursor)")
                #expect(bad.status == .badRequest, "cursor \(cursor)")
                #expect(error["error"] as? String == "invalid_cursor")
            }
        }
    }

    @Test("A page of the list goes gzipped to a client that accepts it")
    func gzippedPages() async throws {
        try await withDiaryAPI { client in
            for number in 0..<20 { _ = try await client.create(title: "Entry \(number)", body: String(repeating: "words and more words ", count: 12)) }
            let plain = try await client.execute(uri: "/api/v1/entries", method: .get)
            let packed = try await client.execute(uri: "/api/v1/entries", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.body.readableBytes * 2 < plain.body.readableBytes)
            var body = packed.body
            #expect(try body.decompress(with: .gzip) == plain.body)
        }
    }

    @Test("A page of the list goes in Brotli to a client that accepts br; the first page is kept once for each coding")
    func brotliPages() async throws {
        try await withDiaryAPI { client in
            for number in 0..<25 { _ = try await client.create(title: "Entry \(number)", body: String(repeating: "words and more words ", count: 12)) }
            let plain = try await client.execute(uri: "/api/v1/entries", method: .get)
            for _ in 0..<2 {  // made, then kept
                let brotli = try await client.execute(uri: "/api/v1/entries", method: .get, headers: [.acceptEncoding: "gzip, deflate, br, zstd"])
                #expect(brotli.headers[.contentEncoding] == "br")
                #expect(brotli.headers[.vary] == "Accept-Encoding")
                #expect(brotli.body.readableBytes * 2 < plain.body.readableBytes)
                // Refused by q=0: gzip, never the Brotli page kept for the request before.
                let gzipped = try await client.execute(uri: "/api/v1/entries", method: .get, headers: [.acceptEncoding: "gzip, br;q=0"])
                #expect(gzipped.headers[.contentEncoding] == "gzip")
                var body = gzipped.body
                #expect(try body.decompress(with: .gzip) == plain.body)
                let again = try await client.execute(uri: "/api/v1/entries", method: .get)
                #expect(again.headers[.contentEncoding] == nil && again.body == plain.body)
            }
            // A page past the first (not kept) too.
            let page = try JSONSerialization.jsonObject(with: Data(plain.body.readableBytesView)) as? [String: Any]
            let cursor = try #require(page?["nextCursor"] as? String)
            let next = try await client.execute(uri: "/api/v1/entries?limit=5&cursor=\(cursor)", method: .get,
                                                headers: [.acceptEncoding: "br"])
            #expect(next.status == .ok && next.headers[.contentEncoding] == "br")
        }
    }

    @Test("The first page brings on this day when asked, as /on-this-day gives it, and follows changes")
    func firstPageWithOnThisDay() async throws {
        try await withDiaryAPI { client in
            func write(_ title: String, at moment: String) async throws {
                let (response, _) = try await client.send(.post, "/api/v1/entries", json: #"{"title":"\#(title)","body":"","createdAt":"\#(moment)"}"#)
                #expect(response.status == .created)
            }
            for year in [2025, 2023, 2020] { try await write("Then \(year)", at: "\(year)-05-15T09:00:00.000Z") }
            _ = try await client.create(title: "Now")
            let query = "onThisDay=2026-05-15&timeZone=Asia/Seoul&onThisDayYears=2"
            func years(_ page: [String: Any]) -> [Int] {
                ((page["onThisDay"] as? [String: Any])?["years"] as? [[String: Any]] ?? []).compactMap { $0["yearsAgo"] as? Int }
            }
            let (_, first) = try await client.send(.get, "/api/v1/entries?\(query)")
            let (_, alone) = try await client.send(.get, "/api/v1/on-this-day?date=2026-05-15&timeZone=Asia/Seoul&perYear=1&years=2")
            #expect(NSDictionary(dictionary: first["onThisDay"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: alone))
            #expect(years(first) == [1, 3] && (first["onThisDay"] as? [String: Any])?["earlier"] as? Bool == true)
            #expect((first["entries"] as? [Any])?.count == 4)
            // Kept, until the diary changes; the same page without it has none.
            #expect(years(try await client.send(.get, "/api/v1/entries?\(query)").1) == [1, 3])
            try await write("Then 2024", at: "2024-05-15T09:00:00.000Z")
            #expect(years(try await client.send(.get, "/api/v1/entries?\(query)").1) == [1, 2])
            #expect(try await client.send(.get, "/api/v1/entries").1["onThisDay"] == nil)
            // In Brotli too, and kept apart from the plain page.
            let packed = try await client.execute(uri: "/api/v1/entries?\(query)", method: .get, headers: [.acceptEncoding: "br"])
            #expect(packed.headers[.contentEncoding] == "br")
            // Only with the first page of the whole list, and a day that is one.
            #expect(try await client.send(.get, "/api/v1/entries?\(query)&starred=true").0.status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/entries?onThisDay=2026-02-30").0.status == .badRequest)
        }
    }

    @Test("The first page answers every change, also one made by another process on the same file")
    func firstPageFollowsChanges() async throws {
        try await withDiaryAPI { client in
            func firstTitles(gzip: Bool = false) async throws -> [String] {
                let headers: HTTPFields = gzip ? [.acceptEncoding: "gzip"] : [:]
                let response = try await client.execute(uri: "/api/v1/entries?limit=5", method: .get, headers: headers)
                var body = response.body
                if response.headers[.contentEncoding] == "gzip" { body = try body.decompress(with: .gzip) }
                let page = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
                return ((page?["entries"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
            }
            let id = try await client.create(title: "First", body: String(repeating: "long enough to gzip ", count: 80))
            #expect(try await firstTitles() == ["First"])
            #expect(try await firstTitles(gzip: true) == ["First"])
            try await client.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"Renamed","body":"short"}"#, headers: [.ifMatch: "*"])
            #expect(try await firstTitles() == ["Renamed"])
            #expect(try await firstTitles(gzip: true) == ["Renamed"])

            // Another process writing to the same file (the command line, a second server) is
            // another connection: a `SQLiteDatabase` of its own on the same path.
            let token = try #require(client.token)
            let user = try #require(try await client.accounts.user(forToken: token))
            let other = try SQLiteDatabase(path: client.database.path).diary(of: user.id)
            _ = try await other.create(try EntryText(title: "From the command line", body: ""), id: UUID()).entry
            #expect(try await firstTitles() == ["From the command line", "Renamed"])
            _ = try await other.moveToTrash(id: try #require(UUID(uuidString: id)))
            #expect(try await firstTitles(gzip: true) == ["From the command line"])
        }
    }

    @Test("Trash, list the trash, restore, and purge")
    func trash() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Toss", body: "serenity")
            let (trashed, entry) = try await client.send(.delete, "/api/v1/entries/\(id)")
            #expect(trashed.status == .ok)
            #expect(entry["deletedAt"] is String)
            let (_, trash) = try await client.send(.get, "/api/v1/trash")
            #expect((trash["entries"] as? [[String: Any]])?.first?["id"] as? String == id)
            let (_, list) = try await client.send(.get, "/api/v1/entries")
            #expect((list["entries"] as? [Any])?.isEmpty == true)
            let (restored, _) = try await client.send(.post, "/api/v1/entries/\(id)/restore")
            #expect(restored.status == .ok)
            let (purged, _) = try await client.send(.delete, "/api/v1/trash/\(id)")
            #expect(purged.status == .noContent)
            let (gone, _) = try await client.send(.get, "/api/v1/entries/\(id)")
            #expect(gone.status == .notFound)
        }
    }

    @Test("Search returns snippets; Korean is found inside words")
    func search() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "수요일", body: "오늘 일기를 썼다")
            let (_, results) = try await client.send(.get, "/api/v1/search?q=%EC%9D%BC%EA%B8%B0")
            let first = (results["results"] as? [[String: Any]])?.first
            #expect((first?["entry"] as? [String: Any])?["id"] as? String == id)
            #expect((first?["snippet"] as? String)?.contains("일기를") == true)
            let (blank, _) = try await client.send(.get, "/api/v1/search?q=+")
            #expect(blank.status == .badRequest)
        }
    }

    @Test("The sample diary loads into an empty diary only")
    func sample() async throws {
        try await withDiaryAPI { client in
            let (loaded, body) = try await client.send(.post, "/api/v1/sample")
            #expect(loaded.status == .created)
            #expect(body["imported"] as? Int == 15)
            let (again, error) = try await client.send(.post, "/api/v1/sample")
            #expect(again.status == .conflict)
            #expect(error["error"] as? String == "not_empty")
        }
    }
}
