import DiaryCore
import Foundation

/// What `diary new` was given (words, `--title`, `--body`, `--date`, piped text), made into an
/// entry's words and, when a date was given, its moment (and the local time it was read from).
struct NewEntryWords {
    var title: String?
    var words: [String]
    var body: String?
    var date: String?
    /// Photos come with the entry: then it may have no words at all.
    var withPhotos = false

    func read() throws -> (EntryText, date: (moment: Date, local: LocalTime?)?) {
        var dated = date.flatMap { WrittenDate.read($0) }
        var typed = words.joined(separator: " ")
        // jrnl's date in front, before the first ": " of the first line ("yesterday 21:30: Walked").
        // Text whose start is no date ("Note: buy milk") is kept whole.
        if dated == nil, let colon = typed.range(of: ": "), !typed[..<colon.lowerBound].contains(where: \.isNewline),
           let given = WrittenDate.read(String(typed[..<colon.lowerBound])) {
            dated = given
            typed = String(typed[colon.upperBound...])
        }
        let given = try givenBody()
        if let title {
            let body = [typed, given ?? ""].filter { !$0.isBlank }.joined(separator: "\n\n")
            return (try EntryText(title: title, body: body), dated)
        }
        if !typed.isBlank {
            // With a body from elsewhere, the words are the title whole; else jrnl's rule.
            if let given { return (try EntryText(title: typed, body: given), dated) }
            let (title, body) = FirstSentence.split(typed)
            return (try EntryText(title: title, body: body), dated)
        }
        if let given { return (try EntryText(title: "", body: given), dated) }
        if withPhotos {
            // A photo is an entry by itself: no editor opens; text piped in is still its words.
            let written = isatty(STDIN_FILENO) != 1 ? try TextInput.readStandardInput() : ""
            return (try EntryText(title: written, body: "", allowBlank: true), dated)
        }
        let written = try TextInput.read()
        if written.isBlank { throw InputError.nothingWritten }
        return (try EntryText(title: written, body: ""), dated)
    }

    /// `--body`; standard input for `--body -`, or when text is piped in beside a title or words
    /// (`echo "…" | diary new Title`). `nil` when there is none.
    private func givenBody() throws -> String? {
        if let body, body != "-" { return body }
        let piped = isatty(STDIN_FILENO) != 1
        guard body == "-" || (piped && (title != nil || !words.isEmpty)) else { return nil }
        if body == "-" && !piped { return try TextInput.read() }  // at a terminal: the editor
        let text = try TextInput.readStandardInput()
        let trimmed = String(text.reversed().drop(while: \.isWhitespace).reversed())
        return trimmed.isBlank ? nil : trimmed
    }
}
