@testable import DiaryServer
import DiaryCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The limits the web app says and checks are the server's")
struct WebAppLimitsTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/DiaryServer/Resources/Public/js").standardized

    @Test("The page carries each limit as the constant of its rule says, at / and /index.html alike")
    func thePageCarriesTheLimits() async throws {
        let expected = [
            "titleLength": EntryText.maximumTitleLength,
            "searchLength": SearchQuery.maximumLength,
            "tagLength": Tags.maximumLength,
            "tagScalars": Tags.maximumScalars,
            "tagsPerEntry": Tags.maximumCount,
            "photosPerEntry": EntryPhoto.maximumPerEntry,
            "captionLength": EntryPhoto.maximumCaptionLength,
            "passwordLength": User.minimumPasswordLength,
            "loginWaitMinutes": Int(SessionController.throttleWindow / 60),
        ]
        try await withDiaryAPI { client in
            for path in ["/", "/index.html"] {
                let page = String(buffer: try await client.execute(uri: path, method: .get).body)
                #expect(try Self.limits(in: page) == expected, "\(path)")
            }
        }
    }

    @Test("Every limit a script reads is one the page carries")
    func scriptsReadOnlyCarriedLimits() throws {
        let carried = Set(try Self.limits(in: WebAppLimits().json.wrappedAsPage).keys)
        var read: [String: Set<String>] = [:]
        for (file, text) in try Self.scriptFiles() {
            // `api.limits.titleLength`, and `const { a, b: c } = api.limits;`
            for match in Self.matches(#"(?-i)\blimits\.([a-z][A-Za-z]*)"#, in: text) { read[file, default: []].insert(match) }
            for names in Self.matches(#"(?-i)\{([^}]*)\}\s*=\s*(?:api\.)?limits\b"#, in: text) {
                for part in names.split(separator: ",") {
                    let key = part.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) ?? ""
                    if !key.isEmpty { read[file, default: []].insert(key) }
                }
            }
        }
        #expect(read.values.reduce(0) { $0 + $1.count } >= 8, "the scripts' reads were found: \(read)")
        for (file, keys) in read {
            #expect(keys.subtracting(carried).isEmpty, "\(file) reads limits the page does not carry: \(keys.subtracting(carried).sorted())")
        }
    }

    /// The ways a number of the server's rules was copied into a script before: an attribute's
    /// limit, a constant, and words that say a number ("at most 30 photos", "15분 뒤에").
    static let copies = [
        #"maxlength\s*:\s*\d"#, #"minlength\s*[:=]\s*\d"#, #"\bMAX_[A-Z_]*\s*=\s*\d"#,
        #"\bat (most|least) \d"#, #"\d+\s*(minutes?|characters?|photos|tags)\b"#, #"\d+\s*(자|장|개|분)"#,
    ]

    @Test("No script holds a copy of a limit: no number in a field's limit, a constant or a message")
    func noScriptCopiesALimit() throws {
        var found: [String] = []
        for (file, text) in try Self.scriptFiles() {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || code.hasPrefix("*") { continue } // a comment may say why
                for pattern in Self.copies where !Self.matches(pattern, in: String(line), whole: true).isEmpty {
                    found.append("\(file):\(number + 1): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "read these from api.limits instead:\n\(found.joined(separator: "\n"))")
    }

    @Test("The scan finds a copied number, so its silence means something", arguments: [
        "  maxlength: 1000,", "const MAX_PHOTOS = 30;", "tooMany: 'An entry holds at most 30 photos.',",
        "too_many_attempts: 'Try again in 15 minutes.',", "tooLong: '태그는 100자까지 쓸 수 있어요.',", "if (x) input.minLength = 8;",
    ])
    func theScanSeesACopy(line: String) {
        #expect(Self.copies.contains { !Self.matches($0, in: line, whole: true).isEmpty })
    }

    // MARK: - Reading

    /// The JSON object on the page's limits line.
    static func limits(in page: String) throws -> [String: Int] {
        let line = try #require(page.split(separator: "\n").first { $0.hasPrefix(WebAppLimits.marker) })
        let json = line.dropFirst(WebAppLimits.marker.count).prefix { $0 != "<" }
        return try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))
    }

    static func scriptFiles() throws -> [(String, String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: scripts.path).filter { $0.hasSuffix(".js") }.sorted()
        return try names.map { ($0, try String(contentsOf: scripts.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The first group of each match of `pattern` (case-insensitive), or the whole match.
    static func matches(_ pattern: String, in text: String, whole: Bool = false) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            let group = whole || match.numberOfRanges < 2 ? match.range : match.range(at: 1)
            return Range(group, in: text).map { String(text[$0]) }
        }
    }
}

extension String {
    /// The JSON as the page's line carries it.
    fileprivate var wrappedAsPage: String { WebAppLimits.marker + self + "</script>" }
}
