/// A photo's bytes, read without trusting a single number in them: every read is checked against
/// the end, and a read past it throws `.unreadableHeader` for the format being read.
///
/// It borrows the caller's memory (an mmapped file of up to 20 MB) and never copies it; a view of
/// one box or segment (`view(_:)`) makes reads past that part's end fail the same way.
struct HeaderBytes {
    let base: UnsafeRawBufferPointer
    let format: PhotoFormat

    var count: Int { base.count }
    var unreadable: PhotoError { .unreadableHeader(format) }

    /// Whether `length` bytes from `offset` lie inside; written so that no sum can overflow.
    func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    func byte(_ offset: Int) throws(PhotoError) -> UInt8 {
        guard has(1, at: offset) else { throw unreadable }
        return base[offset]
    }

    /// An unsigned number of `size` bytes (0 to 8), most significant first unless `littleEndian`.
    func number(_ offset: Int, size: Int, littleEndian: Bool = false) throws(PhotoError) -> UInt64 {
        guard size <= 8, has(size, at: offset) else { throw unreadable }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(base[littleEndian ? offset + size - 1 - index : offset + index])
            value = value << 8 | byte
        }
        return value
    }

    func uint16(_ offset: Int, littleEndian: Bool = false) throws(PhotoError) -> Int {
        Int(try number(offset, size: 2, littleEndian: littleEndian))
    }

    func uint24(_ offset: Int, littleEndian: Bool = false) throws(PhotoError) -> Int {
        Int(try number(offset, size: 3, littleEndian: littleEndian))
    }

    func uint32(_ offset: Int, littleEndian: Bool = false) throws(PhotoError) -> Int {
        Int(try number(offset, size: 4, littleEndian: littleEndian))
    }

    /// A size or offset of `size` bytes that must fit an `Int` (8-byte ones may not).
    func offset(_ offset: Int, size: Int) throws(PhotoError) -> Int {
        guard let value = Int(exactly: try number(offset, size: size)) else { throw unreadable }
        return value
    }

    /// Whether the bytes at `offset` are exactly `expected`; false when they would run past the end.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard has(expected.count, at: offset) else { return false }
        for (index, byte) in expected.enumerated() where base[offset + index] != byte { return false }
        return true
    }

    /// The bytes of `range` alone, offsets counted from its start.
    func view(_ range: Range<Int>) throws(PhotoError) -> HeaderBytes {
        guard has(range.count, at: range.lowerBound) else { throw unreadable }
        return HeaderBytes(base: UnsafeRawBufferPointer(rebasing: base[range]), format: format)
    }
}

/// A four-character code (RIFF chunks, ISO BMFF boxes, PNG chunk types) as the number its four
/// ASCII bytes make, most significant first, so codes compare as integers.
func fourCC(_ code: StaticString) -> UInt32 {
    precondition(code.utf8CodeUnitCount == 4)
    let bytes = UnsafeBufferPointer(start: code.utf8Start, count: 4)
    return bytes.reduce(0) { $0 << 8 | UInt32($1) }
}

extension Array where Element == UInt8 {
    /// The ASCII bytes of a literal (signatures, box names).
    init(ascii text: StaticString) {
        self.init(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    mutating func append(littleEndian value: UInt32) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }
}
