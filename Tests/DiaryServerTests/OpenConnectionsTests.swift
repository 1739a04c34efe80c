@testable import DiaryServer
import NIOCore
import NIOEmbedded
import Testing

@Suite("Each address holds at most its share of the connections")
struct OpenConnectionsTests {
    /// A connection from `address`, open and known to `connections`.
    static func open(from address: String, in connections: OpenConnections) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        channel.remoteAddress = try SocketAddress(ipAddress: address, port: 40_000)  // (connect sets it to where it went)
        _ = connections.opened(channel)
        return channel
    }

    @Test("Addresses of one IPv6 /64 share one share; another /64 has its own", arguments: [
        ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:aaaa:bbbb:cccc:dddd"],
        ["192.0.2.7", "192.0.2.7", "192.0.2.7"],
    ])
    func oneShareAnAddress(addresses: [String]) throws {
        let connections = OpenConnections(capacity: 100, perClient: 2, trusted: .none)
        let channels = try addresses.map { try Self.open(from: $0, in: connections) }
        // Past its share with none that may go yet (all too young to judge): the new one is refused.
        #expect(channels.map(\.isActive) == [true, true, false])
        let elsewhere = try Self.open(from: addresses[0].contains(":") ? "2001:db8:1:3::1" : "192.0.2.8", in: connections)
        #expect(elsewhere.isActive, "another address has a share of its own")
    }
}
