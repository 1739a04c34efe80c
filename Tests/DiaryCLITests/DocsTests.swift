import Foundation
import Testing

/// The README, the changelog and the pages in `docs/` as a newcomer follows them: every link leads
/// to a file that exists and a heading that is there, and every `diary` command their examples
/// show is one `diary --help` lists.
@Suite("Docs")
struct DocsTests {
    /// README.md, CHANGELOG.md and docs/*.md, as paths from the repository's root.
    static func pages() throws -> [String] {
        let docs = DiaryProcess.repository.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md", "CHANGELOG.md"] + names.map { "docs/\($0)" }
    }

    static func page(_ path: String) throws -> MarkdownPage {
        try MarkdownPage(text: String(contentsOf: DiaryProcess.repository.appendingPathComponent(path), encoding: .utf8))
    }

    @Test("every link in the README, the changelog and docs/ leads to a file, and its #anchor to a heading there")
    func links() throws {
        var checked = 0
        for path in try Self.pages() {
            let folder = DiaryProcess.repository.appendingPathComponent(path).deletingLastPathComponent()
            for link in try Self.page(path).links {
                if link.contains("://") || link.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].removingPercentEncoding ?? parts[0]
                let target = file.isEmpty
                    ? DiaryProcess.repository.appendingPathComponent(path)
                    : folder.appendingPathComponent(file).standardizedFileURL
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(path): the link (\(link)) names \(file), which does not exist")
                    continue
                }
                guard parts.count == 2, target.pathExtension == "md" else { continue }
                let anchors = try MarkdownPage(text: String(contentsOf: target, encoding: .utf8)).anchors
                #expect(anchors.contains(parts[1]), "\(path): the link (\(link)) names #\(parts[1]), no heading of \(target.lastPathComponent)")
            }
        }
        // A parser that found nothing would pass everything.
        #expect(checked > 50, "only \(checked) links found")
    }

    @Test("every page of docs/ is linked from the README, and the README stays short")
    func readmeLeadsEverywhere() throws {
        let readme = try Self.page("README.md")
        let linked = Set(readme.links.map { String($0.split(separator: "#", omittingEmptySubsequences: false)[0]) })
        for path in try Self.pages() where path.hasPrefix("docs/") {
            #expect(linked.contains(path), "README.md does not link \(path)")
        }
        let lines = try String(contentsOf: DiaryProcess.repository.appendingPathComponent("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 250, "README.md has \(lines) lines: the detail belongs in docs/ (issue 33)")
    }

    @Test("every diary command the examples show is one diary --help lists, and so is each of its subcommands")
    func commands() throws {
        let diary = try DiaryProcess()
        var subcommands: [String: Set<String>] = [:]
        func listed(_ command: [String]) throws -> Set<String> {
            let key = command.joined(separator: " ")
            if let known = subcommands[key] { return known }
            let help = try diary.run(command + ["--help"])
            let names = Self.subcommands(inHelp: help.output)
            subcommands[key] = names
            return names
        }
        let top = try listed([])
        #expect(top.contains("new") && top.contains("serve"), "diary --help lists no commands: \(top)")
        var shown = 0
        for path in try Self.pages() {
            for line in try Self.page(path).code {
                let example = line.trimmingCharacters(in: .whitespaces)
                for words in Self.diaryCommands(in: line) {
                    shown += 1
                    guard top.contains(words[0]) else {
                        Issue.record("\(path): `\(example)` runs diary \(words[0]), which diary --help does not list")
                        continue
                    }
                    // `diary user add`: a command with subcommands of its own is followed by one of them.
                    let below = try listed([words[0]])
                    guard !below.isEmpty, words.count > 1 else { continue }
                    #expect(below.contains(words[1]), "\(path): `\(example)`: diary \(words[0]) --help does not list \(words[1])")
                }
            }
        }
        #expect(shown > 20, "only \(shown) diary commands found in the examples")
    }

    /// The names under SUBCOMMANDS in swift-argument-parser's help: each indented two spaces, its
    /// description's wrapped lines deeper.
    static func subcommands(inHelp help: String) -> Set<String> {
        var names: Set<String> = []
        var inside = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("SUBCOMMANDS:") { inside = true; continue }
            guard inside else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            guard line.hasPrefix("  "), line.dropFirst(2).first?.isLetter == true else { continue }
            names.insert(String(line.dropFirst(2).prefix { $0 != " " }))
        }
        return names
    }

    /// The words after each `diary` that starts a command in a line of an example: at the line's
    /// start, or after a pipe, `;`, `&&` or `(` (`sudo -u postgres createdb --owner diary diary`
    /// is not one), before a comment; only words, never an option such as `--version`.
    static func diaryCommands(in line: String) -> [[String]] {
        var commands: [[String]] = []
        let command = line.range(of: " #").map { String(line[..<$0.lowerBound]) } ?? line
        for piece in command.split(whereSeparator: { "|;&(".contains($0) }) {
            let words = piece.split(separator: " ").map(String.init)
            guard words.first == "diary", words.count > 1 else { continue }
            let names = words.dropFirst().prefix(2).prefix { word in
                word.first.map { $0.isLowercase && $0.isASCII } == true && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }
            if !names.isEmpty { commands.append(Array(names)) }
        }
        return commands
    }

    @Test("the checker reads links, anchors and commands as GitHub and a shell do")
    func checker() {
        let page = MarkdownPage(text: """
            # Running on PostgreSQL
            ## Accounts: private by default
            ## `diary import`, step by step
            ## Accounts: private by default
            Text with [a link](docs/a.md#x) and [one over
            two lines](#running-on-postgresql), `[not a link](b.md)` and ``a `[nor](c.md)` ``.
            <img src="docs/images/a.png" width="240" alt="A picture">
            ```sh
            [no link](d.md)
            # no heading
            diary new Rain | diary list --json   # then (diary serve works on it too)
            diary trash --empty
            sudo -u postgres createdb --owner diary diary
            diary --version
            ```
            """)
        #expect(page.links == ["docs/a.md#x", "#running-on-postgresql", "docs/images/a.png"])
        #expect(page.anchors == ["running-on-postgresql", "accounts-private-by-default", "diary-import-step-by-step",
                                 "accounts-private-by-default-1"])
        #expect(page.code.flatMap(Self.diaryCommands) == [["new"], ["list"], ["trash"]])
        let help = """
            SUBCOMMANDS:
              add                     Add an account. The password is read from the
                                      terminal without echo, or from standard input.
              list                    List the accounts.

              See 'diary help user <subcommand>' for detailed help.
            """
        #expect(Self.subcommands(inHelp: help) == ["add", "list"])
    }
}

/// A Markdown page as GitHub renders it, as far as links go: its links outside code, its code
/// blocks' lines, and the anchors its headings get.
struct MarkdownPage {
    var links: [String] = []
    var code: [String] = []
    var anchors: [String] = []

    init(text: String) {
        var prose: [String] = []
        var fence: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil } else { code.append(line) }
                prose.append("")
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                prose.append("")
                continue
            }
            prose.append(line)
            if let heading = Self.heading(line) {
                let anchor = Self.anchor(heading)
                var unique = anchor
                var count = 0
                while anchors.contains(unique) {
                    count += 1
                    unique = "\(anchor)-\(count)"
                }
                anchors.append(unique)
            }
        }
        let plain = Self.withoutCodeSpans(prose.joined(separator: "\n"))
        let inline = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/
        links = plain.matches(of: inline).map { String($0.output.1) }
        let reference = /(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/
        links += plain.matches(of: reference).map { String($0.output.1) }
        // HTML the page holds, such as the README's screenshots (`<img src=… width=…>`).
        let html = /<(?:img|a)\s[^>]*?\b(?:src|href)="([^"]+)"/
        links += plain.matches(of: html).map { String($0.output.1) }
    }

    /// The text of an ATX heading (`## Text`), or nil.
    static func heading(_ line: String) -> String? {
        guard let match = line.wholeMatch(of: /^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$/) else { return nil }
        var text = String(match.output.1 ?? "")
        // A closing sequence of #s is not part of the heading.
        if let closing = text.firstMatch(of: /[ \t]+#+$/) { text.removeSubrange(closing.range) }
        return text
    }

    /// GitHub's anchor for a heading: its text as shown (links as their text), lowercased,
    /// punctuation dropped (letters, digits, marks, `_` and `-` stay), spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        let shown = heading.replacing(/!?\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
        var anchor = ""
        for character in shown.lowercased() {
            if character == " " {
                anchor.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber
                        || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .nonspacingMark }) {
                anchor.append(character)
            }
        }
        return anchor
    }

    /// The text with each code span (`…`, ``…``, which may run over lines) made a space; a run of
    /// backticks that nothing closes stays as it is.
    static func withoutCodeSpans(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else {
                result.append(characters[index])
                index += 1
                continue
            }
            var run = index
            while run < characters.count, characters[run] == "`" { run += 1 }
            let length = run - index
            var close = run
            var found: Int?
            while close < characters.count {
                if characters[close] == "`" {
                    var end = close
                    while end < characters.count, characters[end] == "`" { end += 1 }
                    if end - close == length { found = end; break }
                    close = end
                } else {
                    close += 1
                }
            }
            if let end = found {
                result.append(" ")
                index = end
            } else {
                result.append(String(characters[index..<run]))
                index = run
            }
        }
        return result
    }
}
