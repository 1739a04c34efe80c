import ArgumentParser
import DiaryCore

struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "List the diary's tags, or rename one.",
        subcommands: [List.self, Rename.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the diary's tags, the most used first, with how many entries have each.")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON for scripts.")
        var json = false

        func run() async throws {
            let tags = try await options.openDiary().tags()
            if json {
                Output.print(try EntryPrinter.json(tags))
            } else if tags.isEmpty {
                Output.print("No tags yet. Tag an entry with: diary new --tag travel \"Title\"")
            } else {
                let width = String(tags[0].count).count
                for tag in tags {
                    let count = String(tag.count)
                    Output.print(String(repeating: " ", count: width - count.count) + count + "  " + tag.tag)
                }
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a tag on every entry that has it (in the trash too).",
            discussion: """
                When the diary already has the new name, the two tags become one: that is how tags are merged. \
                The new spelling is used everywhere: diary tags rename travel Travel.
                """)

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp("The tag to rename.", valueName: "tag"))
        var tag: String

        @Argument(help: ArgumentHelp("Its new name.", valueName: "new-name"))
        var name: String

        func validate() throws {
            for (what, text) in [("the tag to rename", tag), ("the new name", name)] {
                do { _ = try Diary.oneTag(text, what) } catch { throw ValidationError(error.description) }
            }
        }

        func run() async throws {
            let changed = try await options.openDiary().renameTag(tag, to: name)
            Output.print(changed == 0
                ? "No entry has the tag \(Tags.tidied(tag)) spelled otherwise than \(Tags.tidied(name)): nothing changed."
                : "\(Tags.tidied(tag)) is now \(Tags.tidied(name)) on \(Count.of(changed, "entry", "entries")).")
        }
    }
}
