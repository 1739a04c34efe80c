import Foundation

/// Why a file is not kept as a photo, in words the writer who added it can act on.
///
/// Each is decided from the file's header alone, before anything is stored: the server never
/// decodes an image, so a file it cannot follow to the end of its header is refused rather than
/// guessed at.
public enum PhotoError: Error, Equatable, Sendable {
    /// The bytes are none of the formats in `PhotoFormat`, whatever the upload claimed.
    case notAPhoto
    /// The file starts as this format, but its header is cut short, points outside the file, or
    /// contradicts itself.
    case unreadableHeader(PhotoFormat)
    /// The header claims more pixels than `PhotoFacts.maximumSide` or `PhotoFacts.maximumPixels`
    /// allow: a "photo bomb" that would take gigabytes to show.
    case tooManyPixels(width: Int, height: Int)
    /// An animation of more frames than `PhotoFacts.maximumFrames`, or whose frames, each counted
    /// at its canvas's `width × height`, have more pixels together than `PhotoFacts.maximumPixels`:
    /// a small file that would take minutes and gigabytes to play.
    case tooManyFrames(count: Int, width: Int, height: Int)
}

extension PhotoError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .notAPhoto:
            "Diary keeps JPEG, PNG, WebP, GIF and HEIC photos; this file is none of them."
        case .unreadableHeader(let format):
            "This \(format.name) photo cannot be read: the file is cut short or damaged. Export it again from the app that made it."
        case .tooManyPixels(let width, let height):
            "This photo is \(width.formatted()) × \(height.formatted()) pixels: Diary keeps photos of at most "
                + "\(PhotoFacts.maximumSide.formatted()) pixels a side and \(PhotoFacts.maximumPixels / 1_000_000) million pixels in all. "
                + "Add a smaller copy."
        case .tooManyFrames(let count, let width, let height):
            "This animation has \(count.formatted()) frames of \(width.formatted()) × \(height.formatted()) pixels: Diary keeps "
                + "animations of at most \(PhotoFacts.maximumFrames.formatted()) frames and \(PhotoFacts.maximumPixels / 1_000_000) "
                + "million pixels counted over all their frames. Add a shorter or smaller copy."
        }
    }

    public var errorDescription: String? { description }
}
