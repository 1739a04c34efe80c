/// The kinds of photo a diary keeps, told from a file's own bytes and never from what an upload
/// says it is: a browser's or a client's Content-Type is only a claim.
///
/// These five are what phones and cameras make and what every current browser shows; anything
/// else (SVG, which can carry script; PDF; AVIF, which older browsers cannot show) is refused.
public enum PhotoFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, gif, heic

    /// The media type to serve the photo with.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .heic: "image/heic"
        }
    }

    /// The file name extension for a stored or exported photo, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        case .heic: "heic"
        }
    }

    /// The name people know the format by, for messages.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        case .gif: "GIF"
        case .heic: "HEIC"
        }
    }
}
