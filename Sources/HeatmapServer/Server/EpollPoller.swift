#if os(Linux)
    import CEpoll

    /// Linux's epoll, level-triggered, as a ``Poller``: the kernel keeps the set, a wait costs
    /// the ready descriptors only (at most 256 a call).
    final class EpollPoller: Poller {
        let backend = EventLoopBackend.epoll
        private let set: Int32
        private static let capacity = 256
        private var ids = [UInt64](repeating: 0, count: capacity)
        private var events = [UInt32](repeating: 0, count: capacity)

        init() throws(SocketError) {
            set = cepoll_create()
            guard set >= 0 else { throw SocketError("epoll_create1") }
        }

        deinit { Posix.close(set) }

        func add(_ fd: Int32, interest: PollerInterest, id: UInt64) -> Bool {
            cepoll_add(set, fd, Self.mask(interest), id) == 0
        }

        func modify(_ fd: Int32, interest: PollerInterest, id: UInt64) -> Bool {
            cepoll_modify(set, fd, Self.mask(interest), id) == 0
        }

        func remove(_ fd: Int32) { _ = cepoll_remove(set, fd) }

        func closing(_ fd: Int32) {}

        func wait(timeout: Int32, into ready: inout [PollerEvent]) {
            ready.removeAll(keepingCapacity: true)
            let count = cepoll_wait(set, &ids, &events, Int32(Self.capacity), timeout)
            for i in 0..<max(0, Int(count)) {
                let flags = events[i]
                var kind: PollerEvent.Kind = []
                if flags & cepoll_in != 0 { kind.insert(.readable) }
                if flags & cepoll_out != 0 { kind.insert(.writable) }
                if flags & cepoll_hup != 0 { kind.insert(.hangup) }
                if flags & cepoll_err != 0 { kind.insert(.error) }
                ready.append(PollerEvent(id: ids[i], kind: kind))
            }
        }

        private static func mask(_ interest: PollerInterest) -> UInt32 {
            (interest.contains(.readable) ? cepoll_in : 0) | (interest.contains(.writable) ? cepoll_out : 0)
        }
    }
#endif
