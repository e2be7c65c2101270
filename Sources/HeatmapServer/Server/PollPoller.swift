/// POSIX `poll(2)` as a ``Poller``: the set is an array this process keeps and hands to the
/// kernel on every wait, so a wait costs every registered descriptor, ready or not (epoll's
/// costs the ready ones). It runs everywhere: the backend on macOS, and on Linux with
/// `HEATMAP_EVENT_LOOP=poll`, where CI runs the server's tests on it too.
///
/// A descriptor watched for nothing is kept with its number negated, which `poll` skips: XNU
/// reports `POLLHUP` for a peer that only shut its side, and would otherwise wake the loop
/// over and over while a response is being made.
final class PollPoller: Poller {
    let backend = EventLoopBackend.poll
    private var fds: [pollfd] = []
    private var ids: [UInt64] = []
    /// The place in `fds` of each descriptor number, plus one (0: not registered).
    private var places: [Int] = []

    func add(_ fd: Int32, interest: PollerInterest, id: UInt64) -> Bool {
        guard fd >= 0, place(of: fd) == nil else { return false }
        if Int(fd) >= places.count { places += repeatElement(0, count: Int(fd) + 1 - places.count) }
        fds.append(Self.entry(fd, interest))
        ids.append(id)
        places[Int(fd)] = fds.count
        return true
    }

    func modify(_ fd: Int32, interest: PollerInterest, id: UInt64) -> Bool {
        guard let i = place(of: fd) else { return false }
        fds[i] = Self.entry(fd, interest)
        ids[i] = id
        return true
    }

    func remove(_ fd: Int32) {
        guard let i = place(of: fd) else { return }
        let last = fds.count - 1
        if i != last {
            fds[i] = fds[last]
            ids[i] = ids[last]
            let moved = fds[i].fd < 0 ? ~fds[i].fd : fds[i].fd
            places[Int(moved)] = i + 1
        }
        fds.removeLast()
        ids.removeLast()
        places[Int(fd)] = 0
    }

    func closing(_ fd: Int32) { remove(fd) }

    func wait(timeout: Int32, into ready: inout [PollerEvent]) {
        ready.removeAll(keepingCapacity: true)
        let count = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        guard count > 0 else { return }
        for i in fds.indices where fds[i].revents != 0 {
            let flags = Int32(fds[i].revents)
            var kind: PollerEvent.Kind = []
            if flags & POLLIN != 0 { kind.insert(.readable) }
            if flags & POLLOUT != 0 { kind.insert(.writable) }
            if flags & POLLHUP != 0 {
                if Posix.pollHangupMeansClosed {
                    kind.insert(.hangup)
                } else {
                    // Only the peer's side: reading sees the end of file, writing what is left.
                    kind.insert(.readable)
                    if fds[i].events & Int16(POLLOUT) != 0 { kind.insert(.writable) }
                }
            }
            if flags & (POLLERR | POLLNVAL) != 0 { kind.insert(.error) }
            ready.append(PollerEvent(id: ids[i], kind: kind))
            if ready.count == Int(count) { break }
        }
    }

    /// The place of `fd` in `fds`, if registered.
    private func place(of fd: Int32) -> Int? {
        guard fd >= 0, Int(fd) < places.count, places[Int(fd)] > 0 else { return nil }
        return places[Int(fd)] - 1
    }

    /// The entry of `fd` watched for `interest`; negated (skipped) when that is nothing.
    private static func entry(_ fd: Int32, _ interest: PollerInterest) -> pollfd {
        var events: Int16 = 0
        if interest.contains(.readable) { events |= Int16(POLLIN) }
        if interest.contains(.writable) { events |= Int16(POLLOUT) }
        return pollfd(fd: events == 0 ? ~fd : fd, events: events, revents: 0)
    }
}
