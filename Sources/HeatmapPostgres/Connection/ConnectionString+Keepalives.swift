import CPostgres
import Foundation

extension ConnectionString {
    /// TCP keepalives every connection asks for unless the user sets them: the first probe
    /// after 30 s of silence, then every 10 s, the link given up after 3 unanswered, so that a
    /// server or link that vanishes mid-statement fails the statement in about a minute
    /// instead of hanging until the kernel's default (hours).
    static let keepaliveDefaults: [(keyword: String, value: String)] = [
        ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
    ]

    /// How long opening a connection may take (libpq's `connect_timeout`, seconds) unless the
    /// user sets it: without one, a server that accepts the connection but never answers (a
    /// stopped process, a proxy in front of nothing) holds the caller forever.
    static let connectTimeoutDefault = (keyword: "connect_timeout", value: "10")

    /// The keyword and value arrays for `PQconnectdbParams`: the keepalive and connect-timeout defaults the user
    /// left unset (neither in the string nor through a `PG*` variable libpq reads for them),
    /// then `dbname` holding the user's string, which libpq expands and which so overrides
    /// anything before it.
    var connectParameters: [(keyword: String, value: String)] {
        let given = Set((options ?? []).map(\.keyword))
        let environment = Self.environmentVariables
        let defaults = (Self.keepaliveDefaults + [Self.connectTimeoutDefault]).filter { option in
            guard !given.contains(option.keyword) else { return false }
            guard let variable = environment[option.keyword] else { return true }
            return getenv(variable) == nil
        }
        return defaults + [("dbname", text)]
    }

    /// The environment variable libpq reads for each connection keyword that has one.
    static let environmentVariables: [String: String] = {
        guard let defaults = PQconndefaults() else { return [:] }
        defer { PQconninfoFree(defaults) }
        var found: [String: String] = [:]
        var option = defaults
        while let keyword = option.pointee.keyword {
            if let variable = option.pointee.envvar { found[String(cString: keyword)] = String(cString: variable) }
            option += 1
        }
        return found
    }()
}

extension PostgresConnection {
    /// The options the live connection uses, as libpq reports them (`PQconninfo`), the
    /// passwords left out.
    public var liveOptions: [String: String] {
        var found: [String: String] = [:]
        for (name, value) in Self.options(of: connection) where !["password", "sslpassword"].contains(name) {
            found[name] = value
        }
        return found
    }

    /// Opens a connection with `PQconnectdbParams` from ``ConnectionString/connectParameters``.
    static func connect(_ conninfo: ConnectionString) -> OpaquePointer? {
        let parameters = conninfo.connectParameters
        let keywords = parameters.map { strdup($0.keyword) }
        let values = parameters.map { strdup($0.value) }
        defer { for pointer in keywords + values { free(pointer) } }
        let keywordPointers = keywords.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        return keywordPointers.withUnsafeBufferPointer { k in
            valuePointers.withUnsafeBufferPointer { v in PQconnectdbParams(k.baseAddress, v.baseAddress, 1) }
        }
    }
}
