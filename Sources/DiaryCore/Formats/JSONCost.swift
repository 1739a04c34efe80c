import Foundation

/// What a file of JSON will cost in memory once `JSONSerialization` has read it whole, estimated
/// from its bytes in one pass before it is parsed: JSON that is not entries (a long list of
/// numbers, lists within lists, objects by the million) is refused before it takes gigabytes.
///
/// Foundation's reader (swift-corelibs-foundation) keeps what it reads twice at once: as its own
/// tree, each list made with room for 10 values and each object for 20 members, then as
/// Foundation's objects. Measured with `diary import` (its peak memory, past the process's own
/// 40 MB): an object costs about 3 KB, a list about 350 bytes, a value in a list 55 to 85, an
/// object's member about 30 up to its twentieth and up to 240 past it (its table grows, and is
/// made again as Foundation's), an empty list or object 50 to 180; the file's bytes about three
/// times (mapped, copied, and the strings made of them). The weights below are those, rounded
/// up: the estimate is at least what the reading takes, for every shape measured.
public enum JSONCost {
    /// A file of entries may take this many times its size once read (and `allowance` more):
    /// the densest files Diary writes (jrnl's export of one-letter entries, Diary's of entries
    /// of photos alone) take about 38 times.
    public static let factor = 48
    /// What any file may take, however small: a short file of tiny records (the original
    /// app's, of a letter each, take 60 times their size) is never refused for its shape.
    public static let allowance = 64 << 20

    static let perByte = 3, object = 3_200, emptyObject = 192, list = 384, emptyList = 64
    static let inList = 96, member = 32, memberPastRoom = 256, roomInObject = 20
    /// As deep as the reader goes: one level more, and it refuses the file there.
    static let deepest = 512

    /// Refuses JSON whose reading would take more than `factor` times its size and
    /// `allowance`, saying what it holds.
    static func check(_ data: Data) throws(ImportError) {
        // (Text that does not start as a list or an object is refused by the reader at once.)
        let start = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard start == 0x7B || start == 0x5B else { return }
        let (memory, values) = estimate(data)
        guard memory > factor * data.count + allowance else { return }
        throw .tooDense(values: values, bytes: data.count, memory: memory)
    }

    /// The memory reading `data` will take, and how many values (lists, objects, numbers,
    /// strings, true, false, null) it holds: counted in one pass, as deep as the reader goes.
    static func estimate(_ data: Data) -> (memory: Int, values: Int) {
        data.withUnsafeBytes { buffer in
            guard let bytes = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
            var scan = Scan(memory: perByte * buffer.count)
            var index = 0, inWord = false
            var previous: UInt8 = 0  // the last byte outside strings that was not white space
            while index < buffer.count {
                let byte = bytes[index]
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    inWord = false
                    index += 1
                    continue
                case 0x22:  // a string, a key when it opens an object's member: skipped to its end
                    if !(scan.inObject && (previous == 0x7B || previous == 0x2C)) { scan.value() }
                    inWord = false
                    guard let end = Self.endOfString(bytes, from: index + 1, count: buffer.count) else { return (scan.memory, scan.values) }
                    index = end
                case 0x7B, 0x5B:  // { [
                    scan.value()
                    inWord = false
                    guard scan.open(object: byte == 0x7B) else { return (scan.memory, scan.values) }
                case 0x7D, 0x5D:  // } ]
                    inWord = false
                    scan.close(empty: previous == 0x7B || previous == 0x5B)
                case 0x2C, 0x3A:  // , :
                    inWord = false
                default:  // a number, true, false, null
                    if !inWord { scan.value() }
                    inWord = true
                }
                previous = byte
                index += 1
            }
            return (scan.memory, scan.values)
        }
    }

    /// Where the string whose text starts at `start` ends: its closing quote, the first one
    /// after an even number of backslashes (found by `memchr`, which skips text fast).
    private static func endOfString(_ bytes: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var from = start
        while from < count, let found = memchr(bytes + from, 0x22, count - from) {
            let quote = bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 >= from, bytes[quote - backslashes - 1] == 0x5C { backslashes += 1 }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return nil
    }

    /// The lists and objects open at each depth, and what they cost so far.
    private struct Scan {
        var memory: Int
        var values = 0
        var isObject = [Bool](repeating: false, count: JSONCost.deepest)
        var members = [Int](repeating: 0, count: JSONCost.deepest)
        var depth = 0

        var inObject: Bool { depth > 0 && isObject[depth - 1] }

        /// A value: inside a list, or an object's member (its key counted with it).
        mutating func value() {
            values += 1
            guard depth > 0 else { return }
            if !isObject[depth - 1] {
                memory += JSONCost.inList
                return
            }
            members[depth - 1] += 1
            memory += members[depth - 1] <= JSONCost.roomInObject ? JSONCost.member : JSONCost.memberPastRoom
        }

        /// A list or object opened; false past the depth the reader refuses.
        mutating func open(object: Bool) -> Bool {
            guard depth < JSONCost.deepest else { return false }
            (isObject[depth], members[depth]) = (object, 0)
            depth += 1
            memory += object ? JSONCost.object : JSONCost.list
            return true
        }

        mutating func close(empty: Bool) {
            guard depth > 0 else { return }
            depth -= 1
            if empty { memory -= isObject[depth] ? JSONCost.object - JSONCost.emptyObject : JSONCost.list - JSONCost.emptyList }
        }
    }
}
