import Foundation
import Hummingbird
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request's body kept in a file of the server's own (readable by it alone) rather than in
/// memory: twenty phones sending 20 MB photos at once would otherwise hold 400 MB. The file is
/// mapped into memory to be read (the kernel pages it in and out as needed). Its name is removed
/// the moment it is made: the file lives only as long as the server holds it open or mapped, so
/// a server killed mid-upload leaves nothing behind in the temporary folder.
enum UploadedFile {
    /// The body of `request`, at most `limit` bytes (413 beyond, before reading further), as
    /// bytes mapped from a temporary file.
    static func receive(_ request: Request, limit: Int, tooLarge: String) async throws -> Data {
        let file = try await receiveFile(request, limit: limit, tooLarge: tooLarge)
        return try file.mapped()
    }

    /// The body of `request`, at most `limit` bytes, in a temporary file of no name that lives
    /// as long as the `NamelessFile` does.
    static func receiveFile(_ request: Request, limit: Int, tooLarge: String) async throws -> NamelessFile {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(status: .contentTooLarge, code: .tooLarge, message: tooLarge)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("diary-upload-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw APIError(status: .insufficientStorage, code: .diskFull,
                           message: "The server could not make room for the upload; nothing was changed. Try again later.")
        }
        unlink(path)
        let file = NamelessFile(descriptor: descriptor)
        for try await buffer in request.body {
            file.size += buffer.readableBytes
            // A chunked body has no Content-Length to refuse it by up front.
            guard file.size <= limit else { throw APIError(status: .contentTooLarge, code: .tooLarge, message: tooLarge) }
            try buffer.withUnsafeReadableBytes { bytes in try writeAll(bytes, to: descriptor) }
        }
        return file
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw APIError(status: .insufficientStorage, code: .diskFull,
                               message: "The server's disk is full: the upload was not kept, and everything saved before is intact.")
            }
            offset += written
        }
    }
}

/// A file with no name (a received body, a ZIP to send), closed (and so gone) when this is
/// released.
final class NamelessFile: @unchecked Sendable {
    // Written only while the body is received, by one task; read after.
    let descriptor: Int32
    var size = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The file at `path`, opened and measured; its name is the caller's to remove.
    static func opening(_ path: String) -> NamelessFile? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = NamelessFile(descriptor: descriptor)
        file.size = Int(lseek(descriptor, 0, SEEK_END))
        lseek(descriptor, 0, SEEK_SET)
        return file
    }

    deinit { close(descriptor) }

    /// A name by which the file can be opened again while this holds it (the kernel's link to
    /// an open descriptor), for a reader that wants a path, as a ZIP reader does.
    var path: String { "/dev/fd/\(descriptor)" }

    /// Its bytes, mapped from the file: the kernel pages them in and out as needed. The mapping
    /// outlives the descriptor.
    func mapped() throws -> Data {
        guard size > 0 else { return Data() }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw APIError(status: .insufficientStorage, code: .diskFull,
                           message: "The server could not read the upload back; nothing was changed. Try again later.")
        }
        return Data(bytesNoCopy: mapped, count: size, deallocator: .custom { pointer, count in _ = munmap(pointer, count) })
    }
}

extension HTTPResponse.Status {
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
