import ArgumentParser
import DiaryCore
import DiaryServer
import Foundation

/// Which hosts `diary serve` answers for and which proxies it believes, from its options and
/// then the environment (`DIARY_HOST_NAMES`, `DIARY_TRUSTED_PROXIES`, `DIARY_TRUST_PROXY`).
struct NetworkSettings {
    static let hostNamesSetting = Setting<[String]>.list(flag: "--host-name", variable: "DIARY_HOST_NAMES")
    static let trustedProxiesSetting = Setting<[String]>.list(flag: "--trusted-proxy", variable: "DIARY_TRUSTED_PROXIES")
    static let trustProxySetting = Setting<Bool>.onOff(flag: "--trust-proxy", variable: "DIARY_TRUST_PROXY")

    var hostNames: [String]
    var trustedProxies: TrustedProxies

    /// Each list from its flags when any is given, else from its variable (comma-separated);
    /// `--trust-proxy`, else `DIARY_TRUST_PROXY=1`. An error says which flag or variable to fix.
    init(host: String, hostNames: [String], trustedProxies: [String], trustProxy: Bool, environment: [String: String]) throws {
        do {
            let names = try Self.hostNamesSetting.resolve(flag: hostNames.isEmpty ? nil : hostNames, environment: environment, default: [])
            let proxies = try Self.trustedProxiesSetting.resolve(flag: trustedProxies.isEmpty ? nil : trustedProxies,
                                                                  environment: environment, default: [])
            let loopback = try Self.trustProxySetting.resolve(flag: trustProxy ? true : nil, environment: environment, default: false)
            self.hostNames = names.value
            do {
                try ServedHosts.check(hostNames: names.value)
            } catch {
                throw SettingError(source: names.source, "\(names.source): \(error.description)")
            }
            var trusted: TrustedProxies
            do {
                trusted = try TrustedProxies(parsing: proxies.value)
            } catch {
                throw SettingError(source: proxies.source, "\(proxies.source): \(error.description)")
            }
            if loopback.value { trusted = trusted.adding(.loopback) }
            self.trustedProxies = trusted
        } catch {
            throw ValidationError("\(error)")  // a `SettingError`, naming the flag or variable
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
}
