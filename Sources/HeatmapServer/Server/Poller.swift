/// What an event loop waits on: descriptors registered with the events wanted and an id, and
/// a wait that reports which are ready, level-triggered (a descriptor still ready is reported
/// again). Two backends: ``EpollPoller`` on Linux and ``PollPoller`` (`poll(2)`) everywhere.
///
/// A poller belongs to one loop thread; nothing in it is shared.
protocol Poller: AnyObject {
    /// Which backend this is, for `/metrics`.
    var backend: EventLoopBackend { get }
    /// Starts watching `fd` for `interest`, reported with `id`; false when the set refuses it.
    func add(_ fd: Int32, interest: PollerInterest, id: UInt64) -> Bool
    /// Changes what `fd` is watched for; false when the set refuses it.
    func modify(_ fd: Int32, interest: PollerInterest, id: UInt64) -> Bool
    /// Stops watching `fd`, which stays open.
    func remove(_ fd: Int32)
    /// Forgets `fd`, about to be closed (epoll's set drops it by itself on the close: no call).
    func closing(_ fd: Int32)
    /// Waits at most `timeout` milliseconds and replaces `ready` with what is ready (empty on a
    /// timeout or a signal).
    func wait(timeout: Int32, into ready: inout [PollerEvent])
}

/// The events a descriptor is watched for.
struct PollerInterest: OptionSet, Hashable {
    let rawValue: UInt8
    static let readable = PollerInterest(rawValue: 1)
    static let writable = PollerInterest(rawValue: 2)
}

/// One ready descriptor, by the id it was registered with.
struct PollerEvent {
    /// What happened to it.
    struct Kind: OptionSet {
        let rawValue: UInt8
        /// Bytes (or the end of file) to read.
        static let readable = Kind(rawValue: 1)
        /// Room to write.
        static let writable = Kind(rawValue: 2)
        /// Both directions shut or reset: nobody is left to answer.
        static let hangup = Kind(rawValue: 4)
        /// An error on the descriptor.
        static let error = Kind(rawValue: 8)
    }

    var id: UInt64
    var kind: Kind
}

/// The poller behind the server's event loops.
package enum EventLoopBackend: String, Sendable, Hashable, CaseIterable {
    /// Linux's epoll (level-triggered): the default on Linux.
    case epoll
    /// POSIX `poll(2)`: everywhere, the default where epoll is missing (macOS).
    case poll

    /// The environment variable that chooses the backend: `epoll` or `poll`.
    public static let environmentVariable = "HEATMAP_EVENT_LOOP"

    /// The backend of this platform when none is asked for: epoll on Linux, else poll.
    public static var platformDefault: EventLoopBackend {
        #if os(Linux)
            return .epoll
        #else
            return .poll
        #endif
    }

    /// Whether this platform has the backend.
    public var isAvailable: Bool { self == .poll || Self.platformDefault == .epoll }

    /// The backend `HEATMAP_EVENT_LOOP` asks for in `environment` (``platformDefault`` when it
    /// is unset or empty).
    ///
    /// - Throws: ``SocketError`` naming the variable when it holds another name, or a backend
    ///   this platform lacks.
    public static func chosen(in environment: [String: String]) throws(SocketError) -> EventLoopBackend {
        guard let text = environment[environmentVariable], !text.isEmpty else { return platformDefault }
        let names = allCases.filter(\.isAvailable).map(\.rawValue).joined(separator: " or ")
        guard let backend = EventLoopBackend(rawValue: text.lowercased()), backend.isAvailable else {
            throw SocketError("\(environmentVariable)=\(text)", code: EINVAL, detail: "(give \(names))")
        }
        return backend
    }

    /// A new poller of this backend.
    func makePoller() throws(SocketError) -> any Poller {
        switch self {
        case .poll: return PollPoller()
        case .epoll:
            #if os(Linux)
                return try EpollPoller()
            #else
                throw SocketError("epoll", code: ENOSYS)
            #endif
        }
    }
}
