import Foundation

extension ZipFile {
    /// The most a ZIP's directory (its members' names and details) may take: 200,000 members
    /// of long names take a third of it. It is read whole.
    static let maximumDirectoryBytes = 64 << 20

    /// The ZIP at `path` (`zip` in messages), its directory read and checked: every member's
    /// header and bytes within the file, before the directory, and apart from every other's.
    static func open(_ path: String, zip: String, maximumMembers: Int) throws -> ZipFile {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ZipImportError.unreadable(zip) }
        do {
            let file = ZipFile(zip: zip, size: try handle.seekToEnd(), handle: handle)
            let place = try file.directoryPlace()
            file.members = try file.directory(place, maximumMembers: maximumMembers)
            try file.checkPlaces(before: place.start)
            return file
        } catch let error as ZipImportError {
            throw error
        } catch {
            throw ZipImportError.unreadable(zip)
        }
    }

    /// The members the directory lists, each with the place its bytes start.
    private func directory(_ place: (count: UInt64, start: UInt64, length: UInt64), maximumMembers: Int) throws -> [Member] {
        let (count, start, length) = place
        guard count <= UInt64(maximumMembers) else {
            throw ZipImportError.unsafe(zip, "it holds more than \(maximumMembers.formatted()) files")
        }
        guard length <= UInt64(Self.maximumDirectoryBytes) else {
            throw ZipImportError.unsafe(zip, "its list of files takes more than \(Self.maximumDirectoryBytes >> 20) MB, more than any diary's export")
        }
        let bytes = LittleEndian(try read(at: start, count: Int(length)))
        var members: [Member] = []
        var at = 0
        for _ in 0..<count {
            guard bytes.number(at, 4) == 0x0201_4B50, let nameLength = bytes.number(at + 28, 2), let extraLength = bytes.number(at + 30, 2),
                  let commentLength = bytes.number(at + 32, 2), let name = bytes.slice(at + 46, Int(nameLength)),
                  let extra = bytes.slice(at + 46 + Int(nameLength), Int(extraLength)),
                  bytes.number(at + 34, 2) == 0 || bytes.number(at + 34, 2) == 0xFFFF  // its disk: the only one (or ZIP64's, which says)
            else { throw ZipImportError.unreadable(zip) }
            // ZIP64: each of these that does not fit in 32 bits is in an extra field, in this order.
            var wide = LittleEndian(Self.zip64Field(in: extra) ?? []).numbers(8)
            func widened(_ value: UInt64) throws -> UInt64 {
                guard value == 0xFFFF_FFFF else { return value }
                guard let value = wide.next() else { throw ZipImportError.unreadable(zip) }
                return value
            }
            let size = try widened(bytes.number(at + 24, 4)!), compressed = try widened(bytes.number(at + 20, 4)!)
            let offset = try widened(bytes.number(at + 42, 4)!)
            let text = String(bytes: name, encoding: .utf8) ?? String(decoding: name, as: UTF8.self)
            let flags = bytes.number(at + 8, 2)!, madeBy = bytes.number(at + 4, 2)! >> 8, attributes = bytes.number(at + 38, 4)!
            members.append(Member(name: text, kind: Self.kind(text, madeBy: madeBy, attributes: attributes),
                                  method: UInt16(bytes.number(at + 10, 2)!), isEncrypted: flags & 1 != 0,
                                  checksum: UInt32(bytes.number(at + 16, 4)!), compressedSize: compressed, size: size, headerOffset: offset))
            at += 46 + Int(nameLength) + Int(extraLength) + Int(commentLength)
        }
        return members
    }

    /// How many members the directory lists, where it starts, and its length: from the end
    /// record (in the last 64 KB, after which only its comment comes), or ZIP64's.
    private func directoryPlace() throws -> (count: UInt64, start: UInt64, length: UInt64) {
        let tailStart = size - min(size, 22 + 0xFFFF)
        let tail = LittleEndian(try read(at: tailStart, count: Int(size - tailStart)))
        guard let end = stride(from: tail.bytes.count - 22, through: 0, by: -1).first(where: { at in
            tail.number(at, 4) == 0x0605_4B50 && at + 22 + Int(tail.number(at + 20, 2)!) <= tail.bytes.count
        }) else { throw ZipImportError.unreadable(zip) }
        var count = tail.number(end + 10, 2)!, length = tail.number(end + 12, 4)!, start = tail.number(end + 16, 4)!
        var disks = [tail.number(end + 4, 2)!, tail.number(end + 6, 2)!]
        var directoryEnd = tailStart + UInt64(end)
        if end >= 20, tail.number(end - 20, 4) == 0x0706_4B50, let recordOffset = tail.number(end - 12, 8) {
            // ZIP64's end record, where the locator before the end record says.
            guard Self.fits(recordOffset, 56, before: directoryEnd) else { throw ZipImportError.unreadable(zip) }
            let record = LittleEndian(try read(at: recordOffset, count: 56))
            guard record.number(0, 4) == 0x0606_4B50 else { throw ZipImportError.unreadable(zip) }
            (count, length, start) = (record.number(32, 8)!, record.number(40, 8)!, record.number(48, 8)!)
            disks = [record.number(16, 4)!, record.number(20, 4)!]
            directoryEnd = recordOffset
        }
        guard disks == [0, 0] else {
            throw ZipImportError.unsafe(zip, "it is one part of a ZIP split in several: make it again as one file")
        }
        guard Self.fits(start, length, before: directoryEnd) else { throw ZipImportError.unreadable(zip) }
        return (count, start, length)
    }

    /// Each member's own header read, and its bytes placed: within the file, before the
    /// directory, and apart from every other member's. Members that share bytes are how a
    /// few kilobytes are made to inflate to terabytes; no tool makes them otherwise.
    private func checkPlaces(before directoryStart: UInt64) throws {
        var placed: [Member] = []
        var previous: (name: String, end: UInt64)?
        for var member in members.sorted(by: { $0.headerOffset < $1.headerOffset }) {
            if let previous, member.headerOffset < previous.end {
                throw ZipImportError.unsafe(zip, """
                    its files "\(previous.name)" and "\(member.name)" overlap (they share bytes, as a ZIP bomb's files do: \
                    a few kilobytes made to unpack to terabytes)
                    """)
            }
            guard Self.fits(member.headerOffset, 30, before: directoryStart) else { throw ZipImportError.unreadable(zip) }
            let header = LittleEndian(try read(at: member.headerOffset, count: 30))
            // The header's own method and its directory's must agree: a reader that takes one
            // while Diary checks the other would read other bytes than these.
            guard header.number(0, 4) == 0x0403_4B50, header.number(8, 2) == UInt64(member.method),
                  member.method != 0 || member.isEncrypted || member.size == member.compressedSize
            else { throw ZipImportError.unreadable(zip) }
            member.dataOffset = member.headerOffset + 30 + header.number(26, 2)! + header.number(28, 2)!
            guard Self.fits(member.dataOffset, member.compressedSize, before: directoryStart) else { throw ZipImportError.unreadable(zip) }
            previous = (member.name, member.dataOffset + member.compressedSize)
            placed.append(member)
        }
        members = placed
    }

    /// Whether `length` bytes from `start` end by `end` (without overflowing on a hostile value).
    static func fits(_ start: UInt64, _ length: UInt64, before end: UInt64) -> Bool {
        start <= end && length <= end - start
    }

    /// ZIP64's extra field (its id is 1) among a member's extra fields, without its id and length.
    static func zip64Field(in extra: [UInt8]) -> [UInt8]? {
        let fields = LittleEndian(extra)
        var at = 0
        while let id = fields.number(at, 2), let length = fields.number(at + 2, 2) {
            guard let body = fields.slice(at + 4, Int(length)) else { return nil }
            if id == 1 { return body }
            at += 4 + Int(length)
        }
        return nil
    }

    /// A folder (its name ends with "/"), a link (by the Unix mode a Unix or macOS tool
    /// writes), or a file.
    static func kind(_ name: String, madeBy: UInt64, attributes: UInt64) -> Kind {
        let unix = madeBy == 3 || madeBy == 19
        let mode = (attributes >> 16) & 0xF000
        if unix && mode == 0xA000 { return .link }
        if name.hasSuffix("/") || (unix && mode == 0x4000) || (madeBy == 0 && attributes & 0x10 != 0) { return .folder }
        return .file
    }
}

/// Little-endian numbers in a ZIP's records, by offset: nil past the end.
struct LittleEndian {
    let bytes: [UInt8]

    init(_ data: some Collection<UInt8>) { bytes = Array(data) }

    func number(_ at: Int, _ size: Int) -> UInt64? {
        guard at >= 0, at + size <= bytes.count else { return nil }
        return (0..<size).reversed().reduce(0) { $0 << 8 | UInt64(bytes[at + $1]) }
    }

    func slice(_ at: Int, _ count: Int) -> [UInt8]? {
        guard at >= 0, count >= 0, at + count <= bytes.count else { return nil }
        return Array(bytes[at..<(at + count)])
    }

    /// Its numbers of `size` bytes each, one after another.
    func numbers(_ size: Int) -> IndexingIterator<[UInt64]> {
        stride(from: 0, to: bytes.count - size + 1, by: size).compactMap { number($0, size) }.makeIterator()
    }
}
