import Foundation

/// A yes-or-no question asked at the terminal.
enum Confirmation {
    /// Whether the person answered y or yes; anything else, or the end of input, is no.
    static func ask(_ question: String) -> Bool {
        Output.print(question, to: .standardError, terminator: "")
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
