import Foundation

/// Where a PostgreSQL database is and how to reach it, read from a `postgres://` URL as libpq
/// reads one: `postgres://USER@HOST:PORT/DATABASE?sslmode=MODE&sslrootcert=FILE`, a `host`
/// parameter naming a socket's folder (`?host=/var/run/postgresql`). The password is never
/// in it (a URL is seen in `ps` and in shell history): it comes from `passwordFile`, then
/// `PGPASSWORD`, then the password file `PGPASSFILE` (or `~/.pgpass`), as libpq looks.
public struct PostgresAddress: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// A Unix socket's folder, when the server is reached through one.
    public var socketFolder: String?
    public var user: String
    public var database: String
    public var tls: TLSMode
    /// A file holding the certificate authorities to trust (`sslrootcert`).
    public var rootCertificates: String?
    var password: String?

    /// libpq's `sslmode`s that Diary honours.
    public enum TLSMode: String, Sendable, Equatable {
        /// Never encrypted.
        case disable
        /// Encrypted when the server offers it (libpq's default); the certificate is not checked.
        case prefer
        /// Always encrypted; the certificate is checked only when `sslrootcert` is given.
        case require
        /// Always encrypted, by a certificate from a trusted authority.
        case verifyCA = "verify-ca"
        /// Always encrypted, by a trusted certificate made out to this host name.
        case verifyFull = "verify-full"
    }

    /// The URL without its password: what logs and messages show.
    public var description: String {
        let place = socketFolder.map { "?host=\($0)" } ?? ""
        let hostPart = socketFolder == nil ? "\(host):\(port)" : ""
        return "postgres://\(user)@\(hostPart)/\(database)\(place)"
    }

    /// Reads `url`. `environment` gives `PGPASSWORD`, `PGPASSFILE`, `PGUSER` and `HOME`.
    public init(url: String, passwordFile: String? = nil, environment: [String: String]) throws(PostgresAddressError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql"
        else { throw .badURL("it should look like postgres://USER@HOST:PORT/DATABASE") }
        if components.password != nil { throw .passwordInURL }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value else { continue }
            query[item.name] = value
        }
        let known: Set<String> = ["sslmode", "sslrootcert", "host", "port", "user", "dbname", "application_name", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw .badURL("it has an option Diary does not know (\(unknown)); it knows \(known.sorted().joined(separator: ", "))")
        }
        let user = query["user"] ?? components.user ?? environment["PGUSER"] ?? NSUserName()
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = query["dbname"] ?? (path.isEmpty ? user : path)
        guard !user.isEmpty else { throw .badURL("it names no user") }
        guard !database.contains("/") else { throw .badURL("the database's name cannot hold a slash") }
        let hostParameter = query["host"] ?? components.host ?? ""
        var port = components.port ?? 5432
        if let text = query["port"] {
            guard let number = Int(text) else { throw .badURL("its port (\(text)) is not a number") }
            port = number
        }
        guard (1...65_535).contains(port) else { throw .badURL("its port (\(port)) is not between 1 and 65535") }
        let mode = query["sslmode"] ?? "prefer"
        if mode == "allow" {
            self.tls = .prefer
        } else {
            guard let tls = TLSMode(rawValue: mode) else {
                throw .badURL("its sslmode (\(mode)) is none of disable, prefer, require, verify-ca, verify-full")
            }
            self.tls = tls
        }
        self.user = user
        self.database = database
        self.port = port
        if hostParameter.hasPrefix("/") {
            self.socketFolder = hostParameter
            self.host = "localhost"
        } else {
            self.socketFolder = nil
            self.host = hostParameter.isEmpty ? "localhost" : hostParameter
        }
        self.rootCertificates = query["sslrootcert"]
        self.password = try Self.password(file: passwordFile, for: (socketFolder == nil ? host : "localhost", port, database, user),
                                          environment: environment)
    }

    /// The password: from `file` (its first line), `PGPASSWORD`, or the matching line of the
    /// password file; `nil` when none has one (trust or peer authentication needs none).
    static func password(file: String?, for target: (host: String, port: Int, database: String, user: String),
                         environment: [String: String]) throws(PostgresAddressError) -> String? {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw .unreadablePasswordFile(file) }
            return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        }
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        let passFile = environment["PGPASSFILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.pgpass" }
        guard let passFile, let text = try? String(contentsOfFile: passFile, encoding: .utf8) else { return nil }
        return PasswordFile.lookUp(text, host: target.host, port: target.port, database: target.database, user: target.user)
    }
}

/// libpq's password file: lines of `host:port:database:user:password`, `*` for any, `\:` and
/// `\\` for a colon and a backslash inside a field, `#` starting a comment.
enum PasswordFile {
    static func lookUp(_ text: String, host: String, port: Int, database: String, user: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(of: line)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    private static func fields(of line: Substring) -> [String] {
        var fields: [String] = [], field = "", escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}

/// A `postgres://` URL Diary cannot use, and what to do about it.
public enum PostgresAddressError: Error, CustomStringConvertible, Equatable {
    case badURL(String)
    case passwordInURL
    case unreadablePasswordFile(String)

    public var description: String {
        switch self {
        case .badURL(let why):
            "The database URL cannot be used: \(why)."
        case .passwordInURL:
            "The database URL holds a password, which would show in the process list and in logs: remove it from the URL and give it with --database-password-file, PGPASSWORD or a password file (PGPASSFILE, ~/.pgpass)."
        case .unreadablePasswordFile(let path):
            "Cannot read the database password file \(path): check that it exists and that you may read it."
        }
    }
}
