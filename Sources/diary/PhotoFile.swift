import DiaryCore
import Foundation

/// A photo named on the command line (`diary new --photo FILE`), kept in the diary.
enum PhotoFile {
    /// Reads the file at `path` (mapped, never copied whole) and keeps it through `photos`'
    /// rules; errors name the file.
    static func add(_ path: String, to photos: DiaryPhotos) async throws -> StoredPhoto {
        let url = URL(fileURLWithPath: path)
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { throw PhotoFileError(path, "it is not a file") }
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch let error as PhotoFileError {
            throw error
        } catch {
            throw PhotoFileError(path, "there is no such file, or it cannot be read")
        }
        guard size <= DiaryPhotos.maximumUploadBytes else {
            throw PhotoFileError(path, DiaryPhotoError.tooLarge(limitBytes: DiaryPhotos.maximumUploadBytes).description)
        }
        guard size > 0 else { throw PhotoFileError(path, "it is empty") }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw PhotoFileError(path, "it cannot be read")
        }
        do {
            return try await photos.add(data).photo
        } catch let error as PhotoError {
            throw PhotoFileError(path, error.description)
        } catch let error as DiaryPhotoError {
            throw PhotoFileError(path, error.description)
        }
    }
}

struct PhotoFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    var description: String {
        let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        return "\(path): \(reason)."
    }
}
