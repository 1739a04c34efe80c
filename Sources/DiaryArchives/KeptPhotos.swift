import DiaryCore
import Foundation

/// A ZIP's photos kept for one import, one at a time, and which of them were new. The photos are
/// kept before the entries that hold them are stored; an import refused after that (a later
/// photo that is none, a bad entry) lets the new ones go at once, rather than leave them counted
/// against the writer's allowance until unused photos expire a week later.
final class KeptPhotos {
    let photos: DiaryPhotos
    private(set) var added: Set<PhotoID> = []

    init(_ photos: DiaryPhotos) {
        self.photos = photos
    }

    /// Keeps the photo `member` of the ZIP `zip` holds, as any photo is kept (checked, its
    /// metadata taken out); a file that is no photo refuses the import, naming it.
    func keep(_ bytes: Data, member: String, zip: String) async throws -> StoredPhoto {
        do {
            let (photo, isNew) = try await photos.add(bytes)
            if isNew { added.insert(photo.id) }
            return photo
        } catch let error as PhotoError {
            throw ZipImportError.badPhoto(zip, member, error.description)
        } catch let error as DiaryPhotoError where error.isAboutThisPhoto {
            throw ZipImportError.badPhoto(zip, member, error.description)
        }
    }

    /// Lets go of the photos this import added that no entry holds (after a refusal).
    func letGo() async {
        guard !added.isEmpty else { return }
        _ = try? await photos.letGo(ofUnheld: added)
    }
}
