import DiaryCore
@testable import DiaryServer
import Foundation
import Testing

@Suite("API error codes")
struct APIErrorCodeTests {
    @Test("The OpenAPI document's ErrorCode lists exactly the codes of APIErrorCode, no more, no fewer")
    func documentMatchesEnum() throws {
        let document = try #require(String(data: BundledFiles.openAPI, encoding: .utf8))
        let documented = try Self.errorCodes(in: document)
        let declared = APIErrorCode.allCases.map(\.rawValue)
        #expect(Set(declared).subtracting(documented).sorted() == [], "codes the server answers with that openapi.yaml does not list")
        #expect(Set(documented).subtracting(declared).sorted() == [], "codes openapi.yaml lists that the server never answers with")
        #expect(documented.count == Set(documented).count, "a code listed twice in openapi.yaml")
    }

    @Test("A date outside years 1 to 9999 answers bad_date, not bad_tags")
    func badDate() {
        let error = APIError.from(EntryError.momentOutOfRange)
        #expect(error.code == .badDate)
        #expect(error.status == .unprocessableContent)
    }

    /// The items of `components.schemas.ErrorCode.enum`, read line by line: the package has no
    /// YAML parser, and this one list is written as the document's other lists are (`- code`).
    static func errorCodes(in document: String) throws -> [String] {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "    ErrorCode:"), "openapi.yaml has no ErrorCode schema")
        let schema = lines[(start + 1)...].prefix { $0.hasPrefix("      ") }
        let list = try #require(schema.firstIndex(of: "      enum:"), "ErrorCode has no enum")
        let items = schema[(list + 1)...].prefix { $0.hasPrefix("        - ") }
        return items.map { String($0.dropFirst("        - ".count)).trimmingCharacters(in: .whitespaces) }
    }
}
