import Hummingbird
import Synchronization

/// Which methods each API address takes, so that a known address asked with another method is
/// answered `405 Method Not Allowed` with an `Allow` header (RFC 9110 §15.5.6), not `404`:
/// a client then knows the address is right and the method wrong.
///
/// Hummingbird's router answers both with 404. The table is learnt once every route is added
/// (`learn(_:)`, in `buildRouter`) and read only for requests the router did not match.
final class RouteMethods: Sendable {
    private struct Route: Sendable {
        var parts: [RouterPath.Element]
        var method: HTTPRequest.Method
    }

    private let routes = Mutex<[Route]>([])

    func learn(_ routes: [Router<DiaryRequestContext>.RouteDescription]) {
        let table = routes.map { Route(parts: $0.path.components.filter { $0 != .null }, method: $0.method) }
        self.routes.withLock { $0 = table }
    }

    /// The methods `path` takes ("GET", "PUT"), in a stable order; empty for an unknown address.
    func allowed(for path: String) -> [String] {
        let given = path.split(separator: "/")
        let methods: [String] = routes.withLock { routes in
            var methods: [String] = []
            for route in routes where Self.matches(route.parts, given[...]) { methods.append(route.method.rawValue) }
            return methods
        }
        // The router answers HEAD wherever it answers GET (`autoGenerateHeadEndpoints`).
        if methods.contains("GET") { return Set(methods + ["HEAD"]).sorted() }
        return Set(methods).sorted()
    }

    private static func matches(_ parts: [RouterPath.Element], _ given: ArraySlice<Substring>) -> Bool {
        var given = given
        for part in parts {
            if part == .recursiveWildcard { return true }
            guard let next = given.first, part ~= next else { return false }
            given = given.dropFirst()
        }
        return given.isEmpty
    }
}
