import DiaryCore
import Testing

@Suite("How text is cut into search tokens")
struct SearchTextTests {
    @Test("Korean runs become overlapping two-syllable tokens, and the last syllable alone")
    func koreanBigrams() {
        let tokens = SearchText.indexed("일기를 썼다").split(separator: " ").map(String.init)
        #expect(tokens == ["일기", "기를", "를", "썼다", "다"])
    }

    @Test("Other scripts keep their words")
    func englishWords() {
        #expect(SearchText.indexed("A wonderful serenity") == "A wonderful serenity")
    }

    @Test("A Korean query is a phrase of its two-syllable tokens; an English word is a prefix")
    func queryTerms() {
        let terms = SearchText.terms(of: "seren 일기를")
        #expect(terms == [
            SearchTerm(tokens: ["seren"], isPrefix: true),
            SearchTerm(tokens: ["일기", "기를"], isPrefix: false),
        ])
    }

    @Test("Punctuation is not a term")
    func punctuationIgnored() {
        #expect(SearchText.terms(of: "\"*) (").isEmpty)
    }
}

@Suite("Snippets around a match")
struct SnippetTests {
    @Test("Paragraphs and runs of spaces read as one line, with single spaces")
    func oneLine() {
        let snippet = Snippet.of("Morning.\n\nA walk in the rain,\r\n\tthen   tea.", matching: "walk")
        #expect(snippet == "Morning. A walk in the rain, then tea.")
    }

    @Test("The snippet shows the matched word, cut with an ellipsis")
    func aroundTheMatch() {
        let body = String(repeating: "filler words here ", count: 30) + "the serenity of morning " + String(repeating: "more ", count: 60)
        let snippet = Snippet.of(body, matching: "serenity")
        #expect(snippet.contains("serenity"))
        #expect(snippet.hasPrefix("…"))
        #expect(snippet.hasSuffix("…"))
        #expect(snippet.count <= Snippet.length + 2)
    }

    @Test("A Korean match inside a word is found")
    func koreanInsideWord() {
        #expect(Snippet.of("오늘은 일기를 썼다", matching: "기를").contains("일기를"))
    }
}
