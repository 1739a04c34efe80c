import Foundation
import ArgumentParser
import DiaryServer

/// Which hosts `diary serve` answers for and which proxies it believes, from its options and
/// then the environment (`DIARY_HOST_NAMES`, `DIARY_TRUSTED_PROXIES`, `DIARY_TRUST_PROXY`).
struct NetworkSettings {
    var hostNames: [String]
    var trustedProxies: TrustedProxies

    init(host: String, hostNames: [String], trustedProxies: [String], trustProxy: Bool, environment: [String: String]) throws {
        self.hostNames = hostNames.isEmpty ? Self.list(environment["DIARY_HOST_NAMES"]) : hostNames
        let proxies = trustedProxies.isEmpty ? Self.list(environment["DIARY_TRUSTED_PROXIES"]) : trustedProxies
        do {
            try ServedHosts.check(hostNames: self.hostNames)
            var trusted = try TrustedProxies(parsing: proxies)
            if trustProxy || environment["DIARY_TRUST_PROXY"] == "1" { trusted = trusted.adding(.loopback) }
            self.trustedProxies = trusted
        } catch {
            throw ValidationError(error.description)
        }
        // Beyond loopback, anyone's browser can be pointed at the server under any name (DNS
        // rebinding): the names it is really reached by must be said.
        if !ServedHosts.isLoopback(host) && self.hostNames.isEmpty {
            throw ValidationError("""
                --host \(host) listens beyond this computer, so say which names the diary is reached by: \
                add --host-name NAME (such as --host-name diary.example.com, or the address people type, \
                such as --host-name 192.168.1.20), once per name, or set DIARY_HOST_NAMES=name1,name2. \
                Requests for any other host are refused, so that no other web site can reach the diary \
                through a visitor's browser.
                """)
        }
    }

    private static func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
