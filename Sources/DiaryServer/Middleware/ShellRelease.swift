import Foundation
import NIOCore

/// Writes the release into the service worker: which files make up the app shell, the ETag of
/// each, and a version that is a digest of them all.
///
/// A browser installs a new worker only when the bytes of `/sw.js` change. The server knows every
/// web file at start, so it writes their fingerprints into the worker's `const RELEASE = …;` line:
/// any change to any shell file (or to the worker) changes the worker's bytes, and the browser
/// installs it as the next release. The worker keeps the shell in a cache named by the version and
/// takes a file into it only if its ETag is the one written here, so one cache never holds two
/// releases' files.
enum ShellRelease {
    static let workerPath = "/sw.js"
    /// The line of `sw.js` the server replaces; the file on disk holds an empty release there.
    static let marker = "const RELEASE ="

    struct Release: Encodable {
        var version: String
        /// URL path → ETag, for every file of the shell.
        var files: [String: String]
    }

    /// Replaces `/sw.js` in `files` with the worker that carries this release. Without a worker
    /// (or without its marker line) nothing changes.
    static func stamp(_ files: inout [String: WebFile]) {
        guard let worker = files[workerPath] else { return }
        let template = String(buffer: worker.body)
        guard template.contains(marker) else { return }
        let shell = files.filter { isShell($0.key) }.mapValues(\.eTag)
        // The template's own fingerprint is part of the version: a change to the worker's code
        // alone also gives its cache a new name.
        let fingerprint = ([worker.eTag] + shell.keys.sorted().map { "\($0) \(shell[$0]!)" }).joined(separator: "\n")
        let release = Release(version: WebFile.digest(Data(fingerprint.utf8)), files: shell)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(release), let literal = String(data: json, encoding: .utf8) else { return }
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(marker) ? "\(marker) \(literal);" : String(line)
        }
        files[workerPath] = WebFile(Data(lines.joined(separator: "\n").utf8), path: String(workerPath.dropFirst()))
    }

    /// The files a release is made of: all but the worker itself, `/index.html` (the same file as
    /// `/`, which the app is opened at) and the weather icons (named anew when drawn anew, so
    /// never two versions under one name; the browser keeps them for a year).
    static func isShell(_ path: String) -> Bool {
        path != workerPath && path != "/index.html" && !path.hasPrefix("/icons/weather/")
    }
}
