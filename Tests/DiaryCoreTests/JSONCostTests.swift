@testable import DiaryCore
import Foundation
import Testing

/// A file of JSON is read whole: what that will cost is estimated from its bytes first, and
/// JSON that would cost far more than its size (not entries: lists of lists, objects by the
/// million) is refused before it is read, while every file Diary itself writes is read.
@Suite("What reading a file of JSON costs")
struct JSONCostTests {
    /// A list of `item`, about 2 MB of it.
    static func list(of item: String) -> Data {
        Data(("[" + Array(repeating: item, count: (2 << 20) / (item.utf8.count + 1)).joined(separator: ",") + "]").utf8)
    }

    @Test("JSON that is not entries is refused before it is read, saying what it holds and what to do",
          arguments: [#"{"a":1}"#, "[[[[[1]]]]]", "{}", "[1]"])
    func notEntries(item: String) {
        let data = Self.list(of: item)
        #expect {
            _ = try ImportFile.read(data)
        } throws: { error in
            guard case ImportError.tooDense(let values, let bytes, let memory) = error else { return false }
            let said = (error as! ImportError).description
            return values > 100_000 && bytes == data.count && memory > JSONCost.factor * bytes + JSONCost.allowance
                && said.contains("\(values.formatted()) values") && said.contains("smaller files") && said.contains("Nothing was imported")
        }
    }

    @Test("The densest files Diary writes are read, never refused for their shape: entries of photos alone, of one letter as jrnl writes them")
    func ownExports() throws {
        let utc = TimeZone(identifier: "UTC")!
        let photos = (0..<EntryPhoto.maximumPerEntry).map { EntryPhoto(id: PhotoID(String(format: "%064x", $0))!, caption: "", width: 1, height: 1) }
        let files = Dictionary(uniqueKeysWithValues: photos.map {
            ($0.id, DayOneFile.PhotoFile(md5: String($0.id.hex.prefix(32)), type: "png", width: 1, height: 1))
        })
        var diary = Data(ExportFile.header.utf8), jrnl = Data(JrnlFile.header.utf8), dayOne = Data(DayOneFile.header.utf8)
        for day in 0..<100 {
            let moment = Date(timeIntervalSince1970: Double(day) * 86_400)
            let pictured = Entry(title: "", body: "", createdAt: moment, photos: photos)
            let word = Entry(title: "t", body: "", createdAt: moment)
            if day > 0 {
                diary.append(Data(ExportFile.separator.utf8))
                jrnl.append(Data(JrnlFile.separator.utf8))
                dayOne.append(Data(DayOneFile.separator.utf8))
            }
            diary.append(try ExportFile.line(for: pictured))
            jrnl.append(JrnlFile.record(for: word, zone: utc))
            dayOne.append(DayOneFile.record(for: pictured, files: files, zone: utc))
        }
        diary.append(Data(ExportFile.footer.utf8))
        jrnl.append(Data(JrnlFile.footer(tags: [:]).utf8))
        dayOne.append(Data(DayOneFile.footer.utf8))
        for data in [diary, jrnl, dayOne] {
            // The ratio itself, without the allowance that lets any small file through.
            #expect(JSONCost.estimate(data).memory < JSONCost.factor * data.count)
            #expect(try ImportFile.read(data, zone: utc).entries.count == 100)
        }
    }
}
