import Foundation

/// A photo's name: the SHA-256 of its bytes as stored, in lower-case hex.
///
/// Photos are kept by their content: the same photo added to ten entries, or uploaded again
/// after a lost answer, is one copy in the diary. The name is also what the browser caches a
/// photo under, for good: the bytes behind a name never change.
public struct PhotoID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 64 lower-case hex digits.
    public let hex: String

    /// A name as a client or a file writes it: 64 hex digits, either case; `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 64, text.utf8.allSatisfy({ Hex.value(of: $0) != nil }) else { return nil }
        hex = text.lowercased()
    }

    /// The name of a SHA-256 digest.
    public init(digest: some Sequence<UInt8>) {
        hex = Hex.string(digest)
    }

    public var description: String { hex }

    /// The first 12 digits: what the command line shows, as it shows entries' short ids.
    public var short: String { String(hex.prefix(12)) }

    public static func < (lhs: PhotoID, rhs: PhotoID) -> Bool { lhs.hex < rhs.hex }
}

extension PhotoID: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = PhotoID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "A photo's id is 64 hex digits (its SHA-256)."))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
