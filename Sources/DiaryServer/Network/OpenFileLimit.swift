#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// Every connection is a file descriptor, and many systems start a process with a soft limit of
/// 1,024 of them. The server raises its own soft limit (up to the hard limit, which needs no
/// privilege) so that `--max-connections` can be reached; where the hard limit is too low, it
/// serves fewer connections and says so, rather than failing to accept with EMFILE.
enum OpenFileLimit {
    /// Descriptors kept for the database, its log, and the rest of the process.
    static let reserve = 128

    /// The number of connections that can be served: `connections`, or fewer if the hard limit
    /// does not allow it.
    static func raise(toServe connections: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return connections }
        let wanted = rlim_t(connections + reserve)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(resource, &limit) != 0 { _ = getrlimit(resource, &limit) }
        }
        let possible = Int(min(limit.rlim_cur, rlim_t(Int.max))) - reserve
        guard possible < connections else { return connections }
        logger.warning("Only \(max(possible, 1)) connections can be open at once: the limit on open files (ulimit -n) is \(limit.rlim_cur).")
        return max(possible, 1)
    }

    #if os(Linux)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
