/// A short name for the device a session began on, read from its `User-Agent` at login: the
/// browser and the system ("Firefox · Android"), for the list of signed-in devices. Only this
/// is kept, never the whole header. Names are brands, the same in every language.
enum DeviceLabel {
    static func from(userAgent: String?) -> String {
        guard let agent = userAgent?.prefix(512), !agent.isEmpty else { return "" }
        let has = { (word: String) in agent.range(of: word) != nil }
        let browser: String? =
            has("Edg/") || has("EdgA/") || has("EdgiOS/") ? "Edge"
            : has("OPR/") ? "Opera"
            : has("SamsungBrowser/") ? "Samsung Internet"
            : has("Firefox/") || has("FxiOS/") ? "Firefox"
            : has("Chrome/") || has("CriOS/") || has("Chromium/") ? "Chrome"
            : has("Safari/") && has("Version/") ? "Safari"
            : has("curl/") ? "curl"
            : has("python-requests/") ? "Python"
            : nil
        let system: String? =
            has("iPhone") ? "iPhone"
            : has("iPad") ? "iPad"
            : has("Android") ? "Android"
            : has("Windows") ? "Windows"
            : has("CrOS") ? "ChromeOS"
            : has("Macintosh") || has("Mac OS X") ? "macOS"
            : has("Linux") ? "Linux"
            : nil
        return [browser, system].compactMap { $0 }.joined(separator: " · ")
    }
}
