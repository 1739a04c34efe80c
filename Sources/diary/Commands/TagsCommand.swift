import ArgumentParser
import DiaryCore

struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "List the diary's tags, the most used first, with how many entries have each.")

    @OptionGroup var options: StoreOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        let tags = try await options.openDiary().tags()
        if json {
            print(try EntryPrinter.json(tags))
        } else if tags.isEmpty {
            print("No tags yet. Tag an entry with: diary new --tag travel \"Title\"")
        } else {
            let printer = EntryPrinter()
            let width = String(tags[0].count).count
            for tag in tags {
                let count = String(tag.count)
                print(printer.shown(String(repeating: " ", count: width - count.count) + count + "  " + tag.tag))
            }
        }
    }
}
