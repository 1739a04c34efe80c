import DiaryCore
import Foundation

/// The limits the server holds a writer to, as the web app needs them to say and check them:
/// each read from the one constant where its rule lives, never a number of its own.
///
/// The server writes them into the app's page as it starts (`stamp`), the way it writes the
/// release into the service worker: no request more on a first visit, and the worker keeps the
/// page, so they hold offline too. A script reads them from there (`limits` in js/api.js) and
/// holds no copy of a number; a page without them leaves the checks to the server.
struct WebAppLimits: Encodable, Equatable {
    /// Characters in a title (`maxlength` of the title field).
    var titleLength = EntryText.maximumTitleLength
    /// Characters in a search.
    var searchLength = SearchQuery.maximumLength
    /// Characters (grapheme clusters) and code points in a tag, and tags on an entry.
    var tagLength = Tags.maximumLength
    var tagScalars = Tags.maximumScalars
    var tagsPerEntry = Tags.maximumCount
    /// Photos in an entry, and characters in a photo's caption.
    var photosPerEntry = EntryPhoto.maximumPerEntry
    var captionLength = EntryPhoto.maximumCaptionLength
    /// The shortest password an account may have.
    var passwordLength = User.minimumPasswordLength
    /// How long the login throttle refuses a name or an address after too many failures.
    var loginWaitMinutes = SessionController.throttleMinutes

    /// The page's line the server fills in; the file on disk holds an empty object there.
    static let marker = #"<script id="limits" type="application/json">"#
    static let pagePath = "/index.html"

    /// The limits as the page carries them: JSON, keys sorted, so the page's bytes (and its
    /// ETag, and the release) change only when a limit does.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Whole numbers only: nothing here can close the script element it sits in.
        return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    /// Writes the limits into the page in `files`. A page without the marker line is left alone.
    static func stamp(_ files: inout [String: WebFile]) {
        guard let page = files[pagePath] else { return }
        let template = String(buffer: page.body)
        guard template.contains(marker) else { return }
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.trimmingCharacters(in: .whitespaces).hasPrefix(marker) ? "\(marker)\(WebAppLimits().json)</script>" : String(line)
        }
        files[pagePath] = WebFile(Data(lines.joined(separator: "\n").utf8), path: String(pagePath.dropFirst()))
    }
}
