// The physical limit for `diary serve`'s list page: a bare Hummingbird route that answers a
// constant JSON body of the same size, with no database, no authentication and no middleware.
// `scripts/bench` runs wrk against it and against the real list page, at the same connections.
//
//     bench-baseline PORT BYTES
import Foundation
import Hummingbird

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let size = Int(arguments[2]), size >= 4 else {
    FileHandle.standardError.write(Data("usage: bench-baseline PORT BYTES (BYTES at least 4)\n".utf8))
    exit(2)
}

// `[" … "]`: valid JSON of exactly `size` bytes, like the page it stands in for.
let body = ByteBuffer(string: "[\"" + String(repeating: "x", count: size - 4) + "\"]")
let router = Router()
router.get("api/v1/entries") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
