extension EventLoop {
    /// Accepts what is waiting and hands each connection to the next loop in turn; answers 503
    /// beyond the connection cap (counted over all loops); pauses on running out of descriptors.
    func acceptAll() {
        while listener >= 0 {
            guard let (fd, peer) = Socket.accept(listener) else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Out of descriptors: leave the ready listener out of the set for a while.
                    acceptPausedUntil = Socket.now() + 0.1
                    poller.remove(listener)
                    listenerRegistered = false
                }
                return
            }
            stats.acceptedConnections.add(1, ordering: .relaxed)
            // Count in first, and back out if that went over: loops close connections meanwhile.
            guard stats.openConnections.add(1, ordering: .relaxed).newValue <= limits.maxConnections else {
                stats.openConnections.subtract(1, ordering: .relaxed)
                stats.rejectedConnections.add(1, ordering: .relaxed)
                let refusal = HTTPResponse.text(.serviceUnavailable, "too many connections")
                    .serialized(headOnly: false, keepAlive: false, date: currentDate())
                _ = Socket.write(fd, refusal, from: 0)
                Posix.close(fd)
                continue
            }
            let turn = nextSibling % (siblings.count + 1)
            nextSibling &+= 1
            if turn == 0 { adopt(fd, peer: peer) } else { siblings[turn - 1].post(.adopt(fd: fd, peer: peer)) }
        }
    }

    /// Takes a connection on (already counted open); closes it if this loop is shutting down.
    func adopt(_ fd: Int32, peer: String) {
        guard shutdownDeadline == nil else {
            Posix.close(fd)
            stats.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        let connection = Connection(id: nextID, fd: fd, peer: peer, limits: limits, now: Socket.now())
        nextID += 1
        connections[connection.id] = connection
        updateInterest(connection)
    }
}
