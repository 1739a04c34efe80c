import DiaryCore
import HTTPTypes
import Hummingbird

/// The cookies a browser session lives in, and what a browser is told when its session is over.
///
/// `diary_session` holds the session's secret (HttpOnly: no script reads it). `diary_device` holds
/// a mark derived from it, which the page can read: the web app binds the copy of the diary it
/// keeps for offline use to that mark, so a browser whose session is gone (expired, or ended here
/// or elsewhere and said so) shows nothing of its last writer, even offline. The mark tells
/// nothing of the secret.
enum SessionCookies {
    static let session = "diary_session"
    static let device = "diary_device"

    /// The device mark of a session's token: 128 bits of a SHA-256 apart from the stored hash.
    static func deviceMark(of token: String) -> String {
        String(SecretToken.hash("device mark of " + token).prefix(32))
    }

    /// Both cookies of a session (`token` empty and `maxAge` 0: both gone). SameSite=Lax: not
    /// sent on other sites' posts; Secure whenever the request came over HTTPS.
    static func cookies(token: String, maxAge: Int, secure: Bool) -> [Cookie] {
        [
            Cookie(name: session, value: token, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax),
            Cookie(name: device, value: token.isEmpty ? "" : deviceMark(of: token), maxAge: maxAge, path: "/", secure: secure,
                   httpOnly: false, sameSite: .lax),
        ]
    }

    /// What ends a browser's session there: both cookies expired, and the browser's HTTP cache of
    /// this site emptied (`Clear-Site-Data: "cache"`): the photos it kept (served to be cached for a
    /// year) go with the session, not only the entries the page keeps. Not "storage": that would
    /// take the drafts not sent yet, which wait for their writer's next login.
    static func ended(secure: Bool) -> HTTPFields {
        var fields = HTTPFields()
        for cookie in cookies(token: "", maxAge: 0, secure: secure) { fields.append(HTTPField(name: .setCookie, value: cookie.description)) }
        fields.append(HTTPField(name: clearSiteData, value: "\"cache\""))
        return fields
    }

    static let clearSiteData = HTTPField.Name("Clear-Site-Data")!
}
