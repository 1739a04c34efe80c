import DiaryCore
import Foundation
import ZIPFoundation

/// A ZIP opened for import: its members as its directory lists them, each checked to lie
/// within the file and apart from every other before anything is inflated; then their bytes,
/// one member at a time.
///
/// Diary reads the directory itself (`ZipFile+Directory.swift`) rather than through
/// ZIPFoundation's `Archive`, which does as the directory says: it lets many members point at
/// the same compressed bytes (overlapping members, the "better zip bomb": kilobytes that
/// inflate to terabytes), keeps no member's place to check, lists no further once a member's
/// header cannot be read, inflates past a member's own bytes into the next ones (and, at the end
/// of the file, for ever), and checks no checksum. ZIPFoundation only inflates here, each member
/// from its own bytes alone.
final class ZipFile {
    /// What a member is: a file, a folder, or a link (refused).
    enum Kind { case file, folder, link }

    /// One file of the ZIP as its directory describes it, and where its bytes lie.
    struct Member {
        let name: String
        let kind: Kind
        /// 0 stored, 8 Deflate; anything else is refused when the member is read.
        let method: UInt16
        let isEncrypted: Bool
        let checksum: UInt32
        let compressedSize: UInt64
        /// What it unpacks to, as the directory says (checked as it is inflated).
        let size: UInt64
        let headerOffset: UInt64
        /// Where its bytes start, past its own header: known once that header is read.
        var dataOffset: UInt64 = 0
    }

    /// The photos of a ZIP may unpack to this much more than 4 times the ZIP's size, together.
    static let photoAllowance = 64 << 20
    /// How many times its own size a ZIP's photos may unpack to: a photo barely compresses (a
    /// Diary export stores them as they are), so only a ZIP made to cost work comes near it.
    static let photoRatio = 4

    /// The ZIP's name in messages.
    let zip: String
    let size: UInt64
    /// Every member, in the order of their places in the file.
    var members: [Member] = []
    /// What the photos read so far may still unpack to (`photoBytes`): 64 MB and 4 times the
    /// ZIP's size at first, whatever its directory claims.
    private(set) var photoBytesLeft: Int
    let handle: FileHandle

    init(zip: String, size: UInt64, handle: FileHandle) {
        self.zip = zip
        self.size = size
        self.handle = handle
        photoBytesLeft = Self.photoAllowance + Self.photoRatio * Int(clamping: size)
    }

    deinit { try? handle.close() }

    /// A photo's bytes (at most a photo's 20 MB), counted with the others the import has read.
    func photoBytes(of member: Member) throws -> Data {
        let data = try bytes(of: member, limit: DiaryPhotos.maximumUploadBytes, within: photoBytesLeft)
        photoBytesLeft -= data.count
        return data
    }

    /// A member's bytes, counted as they are inflated: past `limit`, or past `within` (the
    /// photos' budget), the ZIP is refused; bytes that do not inflate to what the directory
    /// says (their size, their checksum) are a damaged ZIP.
    func bytes(of member: Member, limit: Int, within budget: Int = .max) throws -> Data {
        guard member.size <= UInt64(limit) else { throw ZipImportError.tooLarge(zip, member.name, limit) }
        guard !member.isEncrypted else { throw ZipImportError.unreadableMember(zip, member.name, Self.damaged) }
        guard member.method == 0 || member.method == 8 else {
            throw ZipImportError.unreadableMember(zip, member.name, """
                it is compressed in a way Diary does not read (Diary reads stored and Deflate files, as Day One and most \
                tools write them): make the ZIP again with the usual compression
                """)
        }
        var data = Data()
        let take: (Data) throws -> Void = { chunk in
            guard data.count + chunk.count <= limit else { throw ZipImportError.tooLarge(self.zip, member.name, limit) }
            guard data.count + chunk.count <= budget else { throw ZipImportError.photosUnpackTooMuch(self.zip, self.photoBudget) }
            data.append(chunk)
        }
        let checksum: CRC32
        do {
            if member.method == 0 {
                try take(try read(at: member.dataOffset, count: Int(member.size)))
                checksum = data.crc32(checksum: 0)
            } else {
                checksum = try Data.decompress(size: Int64(member.compressedSize), bufferSize: Self.chunk, skipCRC32: false,
                                               provider: compressed(member), consumer: take)
            }
        } catch let error as ZipImportError {
            throw error
        } catch {
            throw ZipImportError.unreadableMember(zip, member.name, Self.damaged)
        }
        guard checksum == member.checksum, data.count == member.size else {
            throw ZipImportError.unreadableMember(zip, member.name, Self.damaged)
        }
        return data
    }

    /// A wrong checksum, bytes that do not inflate, or inflate past their own end: damaged, or
    /// encrypted (a ZIP's password leaves its names readable and its contents not).
    static let damaged = "the ZIP is damaged or protected by a password: export it again (without a password) and import the new file"

    /// What the photos may unpack to together, for messages.
    var photoBudget: Int { Self.photoAllowance + Self.photoRatio * Int(clamping: size) }

    static let chunk = 64 * 1024

    /// The compressed bytes of `member`, a chunk at a time, and never one past them: a stream
    /// that does not end within its member's bytes is damaged, not read on into the next
    /// member's. (ZIPFoundation's inflater hands zlib a whole chunk whatever it was given: the
    /// last one is filled out with zeros.)
    private func compressed(_ member: Member) -> Provider {
        var done: UInt64 = 0
        return { _, _ in
            guard done < member.compressedSize else { throw ZipImportError.unreadableMember(self.zip, member.name, Self.damaged) }
            let count = Int(min(UInt64(Self.chunk), member.compressedSize - done))
            var chunk = try self.read(at: member.dataOffset + done, count: count)
            done += UInt64(count)
            if chunk.count < Self.chunk { chunk.append(Data(count: Self.chunk - chunk.count)) }
            return chunk
        }
    }

    /// `count` bytes of the file from `offset`: all of them, or the file is cut short.
    func read(at offset: UInt64, count: Int) throws -> Data {
        try handle.seek(toOffset: offset)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else { throw ZipImportError.unreadable(zip) }
        return data
    }
}
