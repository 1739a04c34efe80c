import DiaryCore

/// Reads a JSON object whose values are all strings, such as an autosave's
/// `{"title": "…", "body": "…"}`, without `JSONDecoder`.
///
/// Every autosave sends one, and `JSONDecoder` (a copy into `Data`, a tree of values, then
/// decoding through `Codable`) was 4% of an autosave's server time. Anything this reader does
/// not take as is (another kind of value, a repeated key, a lone surrogate, invalid UTF-8 or
/// JSON) gives `nil`, and the caller decodes the body with `JSONDecoder`, which accepts it or
/// says exactly what is wrong with it.
enum StringFieldsJSON {
    static func fields(of bytes: UnsafeRawBufferPointer) -> [(key: String, value: String)]? {
        var reader = Reader(bytes: bytes)
        var fields: [(key: String, value: String)] = []
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipSpace()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                reader.skipSpace()
                guard let key = reader.string() else { return nil }
                reader.skipSpace()
                guard reader.take(UInt8(ascii: ":")) else { return nil }
                reader.skipSpace()
                guard let value = reader.string(), !fields.contains(where: { $0.key == key }) else { return nil }
                fields.append((key, value))
                reader.skipSpace()
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        reader.skipSpace()
        return reader.isAtEnd ? fields : nil
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A JSON string, its escapes undone. Text without escapes is copied once, as it is.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var unescaped: [UInt8] = []  // used only for a string with escapes
            var hasEscapes = false
            var start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let rest = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    guard hasEscapes else { return String(validating: rest, as: UTF8.self) }
                    unescaped.append(contentsOf: rest)
                    return String(validating: unescaped, as: UTF8.self)
                }
                if byte < 0x20 { return nil }  // control characters must be escaped
                if byte == UInt8(ascii: "\\") {
                    hasEscapes = true
                    unescaped.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                    index += 1
                    guard escape(into: &unescaped) else { return nil }
                    start = index
                } else {
                    index += 1
                }
            }
            return nil
        }

        /// One escape after its backslash, appended as UTF-8.
        private mutating func escape(into out: inout [UInt8]) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return false }
                var value = UInt32(unit)
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                    value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { return false }  // a lone low surrogate
                out.append(contentsOf: UTF8.encode(scalar)!)
            default: return false
            }
            return true
        }

        private mutating func hex4() -> UInt16? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard let digit = Hex.value(of: bytes[index]) else { return nil }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }
    }
}
