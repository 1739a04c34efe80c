@testable import DiaryServer
import Hummingbird
import Testing

@Suite("Which hosts the server answers for")
struct ServedHostsTests {
    let loopback = ServedHosts(listeningOn: "127.0.0.1", hostNames: [])

    @Test("Loopback's names are served, in any case, with or without a port or a final dot")
    func loopbackNames() {
        for host in ["localhost", "localhost:8080", "LocalHost", "localhost.", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8080", "[0:0::1]:80"] {
            #expect(loopback.serves(host), "\(host)")
        }
    }

    @Test("Other names, and ones that only look like ours, are not")
    func otherNames() {
        for host in ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "localhost:80:80", "localhost:http",
                     "localhost:123456", "[::1", "[::1]x", "::1", "0.0.0.0", "127.0.0.2", "", "local host", "evil.example@localhost"] {
            #expect(!loopback.serves(host), "\(host)")
        }
    }

    @Test("--host-name adds names and addresses; an address listened on is served, 0.0.0.0 is not")
    func givenNames() {
        let named = ServedHosts(listeningOn: "0.0.0.0", hostNames: ["Diary.Example.com", "fd00::7", "192.168.1.20"])
        for host in ["diary.example.com", "DIARY.example.com:443", "[fd00::7]", "[fd00:0::7]:8080", "192.168.1.20:8080", "localhost"] {
            #expect(named.serves(host), "\(host)")
        }
        #expect(!named.serves("0.0.0.0:8080"))
        #expect(ServedHosts(listeningOn: "192.168.1.5", hostNames: []).serves("192.168.1.5:8080"))
    }

    @Test("A host name that is not one is refused, saying what to give instead")
    func badNames() {
        for name in ["http://diary.example", "diary.example/", "two words", "", "diary.example:x"] {
            #expect(throws: NetworkSettingError.self, "\(name)") { try ServedHosts.check(hostNames: [name]) }
        }
        #expect(throws: Never.self) { try ServedHosts.check(hostNames: ["diary.example", "::1", "10.0.0.1", "my_box.lan"]) }
    }

    @Test("Only loopback addresses and localhost are loopback")
    func isLoopback() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost", "LOCALHOST"] { #expect(ServedHosts.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "::", "192.168.1.5", "diary.example", "::ffff:10.0.0.1"] { #expect(!ServedHosts.isLoopback(host), "\(host)") }
    }
}

@Suite("Which proxies the server believes, and who the client is behind them")
struct TrustedProxiesTests {
    let proxies = try! TrustedProxies(parsing: ["10.0.0.0/8", "::1", "fd00::/8"])

    @Test("The client is the right-most address that is not a trusted proxy")
    func rightMostUntrusted() {
        #expect(proxies.client(forwardedFor: ["203.0.113.9"]) == "203.0.113.9")
        #expect(proxies.client(forwardedFor: ["203.0.113.9, 10.0.0.2"]) == "203.0.113.9")
        // What the client wrote itself, on the left, proves nothing.
        #expect(proxies.client(forwardedFor: ["1.2.3.4, 203.0.113.9, 10.0.0.2"]) == "203.0.113.9")
        #expect(proxies.client(forwardedFor: ["1.2.3.4", "203.0.113.9", "10.0.0.2"]) == "203.0.113.9")
        #expect(proxies.client(forwardedFor: ["2001:db8::1, fd00::5"]) == "2001:db8::1")
        #expect(proxies.client(forwardedFor: ["[2001:db8::1]:443, 203.0.113.9:5678"]) == "203.0.113.9")
        #expect(proxies.client(forwardedFor: ["198.51.100.1, ::ffff:10.0.0.2"]) == "198.51.100.1")
    }

    @Test("When every address is a trusted proxy the left-most is the client; an empty header names none")
    func allTrusted() {
        #expect(proxies.client(forwardedFor: ["10.0.0.3, 10.0.0.2"]) == "10.0.0.3")
        #expect(proxies.client(forwardedFor: []) == nil)
        #expect(proxies.client(forwardedFor: [" , "]) == nil)
    }

    @Test("Ranges hold the addresses inside them only")
    func ranges() throws {
        let range = try #require(AddressRange("192.168.4.0/22"))
        #expect(range.contains(NetworkAddress("192.168.7.255")!))
        #expect(!range.contains(NetworkAddress("192.168.8.0")!))
        #expect(!range.contains(NetworkAddress("::1")!))
        #expect(TrustedProxies.loopback.trusts(NetworkAddress("127.9.9.9")!))
        #expect(TrustedProxies.loopback.trusts(NetworkAddress("::ffff:127.0.0.1")!))
        #expect(!TrustedProxies.loopback.trusts(NetworkAddress("128.0.0.1")!))
        #expect(AddressRange("0.0.0.0/0")!.contains(NetworkAddress("8.8.8.8")!))
    }

    @Test("The client is on this computer only if it says so itself, or a trusted proxy says so")
    func clientIsLoopback() {
        let direct = RequestOrigin()
        #expect(direct.clientIsLoopback(peer: NetworkAddress("127.0.0.1")))
        #expect(direct.clientIsLoopback(peer: NetworkAddress("::1")))
        #expect(!direct.clientIsLoopback(peer: NetworkAddress("192.168.1.9")))
        #expect(!direct.clientIsLoopback(peer: nil))
        // A proxy on this computer: its client decides, and one it does not name is remote.
        let loopback = NetworkAddress("127.0.0.1")
        #expect(!RequestOrigin(forwardedBy: .loopback, headers: [:]).clientIsLoopback(peer: loopback))
        #expect(!RequestOrigin(forwardedBy: .loopback, headers: [.xForwardedFor: "203.0.113.5"]).clientIsLoopback(peer: loopback))
        #expect(RequestOrigin(forwardedBy: .loopback, headers: [.xForwardedFor: "127.0.0.1"]).clientIsLoopback(peer: loopback))
        #expect(!RequestOrigin(forwardedBy: .loopback, headers: [.xForwardedFor: "127.0.0.1, 203.0.113.5"]).clientIsLoopback(peer: loopback))
        #expect(RequestOrigin(forwardedBy: .loopback, headers: [.xForwardedFor: "203.0.113.5"]).clientAddress(peer: "127.0.0.1") == "203.0.113.5")
        #expect(RequestOrigin().clientAddress(peer: "127.0.0.1") == "127.0.0.1")
    }

    @Test("A proxy that is not an address or a range is refused")
    func badProxies() {
        for text in ["proxy.example", "10.0.0.0/33", "10.0.0.0/", "/8", "fd00::/129", "10.0.0.1/8/8"] {
            #expect(throws: NetworkSettingError.self, "\(text)") { try TrustedProxies(parsing: [text]) }
        }
    }
}
