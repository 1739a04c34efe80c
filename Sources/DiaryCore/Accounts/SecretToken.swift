import Crypto
import Foundation

/// 256 random bits, URL-safe: tokens for sessions, CSRF and API clients.
public enum SecretToken {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// SHA-256 in lower-case hex: what a backend keeps instead of the token. The tokens are 256
    /// random bits, so a fast hash is enough and a lookup costs nothing. Hex by table, not
    /// `String(format:)`, which cost more than the hash itself on every request.
    public static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(token.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
