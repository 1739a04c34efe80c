import Synchronization

/// The one-time code that lets the first account be made from another computer.
///
/// A new diary's setup page makes whoever fills it in the owner of the diary. From this computer
/// (a loopback address) that is its owner; from anywhere else it could be anyone who found the
/// address first. So `diary serve`, starting on a diary with no account, prints a code on its
/// terminal, which only whoever started it sees; a setup from another address must carry it.
/// Random for each start, accepted once, compared in constant time.
public final class SetupCode: Sendable {
    /// Letters and digits that cannot be misread for each other (no 0/O, 1/I/L).
    private static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ".utf8)
    /// 16 of them: about 79 bits, far beyond guessing over a network.
    private static let length = 16

    /// The code as printed: four groups of four, "7KQM-…".
    public let printed: String
    /// The code still to be used, without dashes; `nil` once an account was made with it.
    private let unused: Mutex<[UInt8]?>

    public init() {
        var generator = SystemRandomNumberGenerator()
        let code = (0..<Self.length).map { _ in Self.alphabet.randomElement(using: &generator)! }
        unused = Mutex(code)
        printed = stride(from: 0, to: Self.length, by: 4)
            .map { String(decoding: code[$0..<$0 + 4], as: UTF8.self) }.joined(separator: "-")
    }

    /// Takes the code if `offered` is it (in any case, with or without dashes and spaces): a
    /// second setup with the same code is then refused. `false` when it is wrong or used.
    func take(_ offered: String) -> Bool {
        let typed = Array(offered.uppercased().utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: " ") })
        return unused.withLock { code in
            guard let expected = code, Self.same(typed, expected) else { return false }
            code = nil
            return true
        }
    }

    /// Puts back a code taken by a setup that then failed (a password too short, say).
    func giveBack() {
        let code = Array(printed.utf8.filter { $0 != UInt8(ascii: "-") })
        unused.withLock { $0 = code }
    }

    /// Compares every byte whatever the first difference, so the time taken tells nothing of how
    /// much of a guess was right.
    private static func same(_ typed: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(typed.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < typed.count ? typed[index] : 0)
        }
        return difference == 0
    }
}
