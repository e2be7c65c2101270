#ifndef HEATMAPKIT_CEPOLL_SHIM_H
#define HEATMAPKIT_CEPOLL_SHIM_H
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/uio.h>
#include <sys/socket.h>

/// epoll for Swift: Glibc's Swift module does not export <sys/epoll.h>, and `struct
/// epoll_event` is packed on x86-64, so these wrappers take and give plain values.

static const uint32_t cepoll_in = EPOLLIN;
static const uint32_t cepoll_out = EPOLLOUT;
static const uint32_t cepoll_err = EPOLLERR;
static const uint32_t cepoll_hup = EPOLLHUP;
static const uint32_t cepoll_exclusive = EPOLLEXCLUSIVE;

/// A new epoll instance, close-on-exec; -1 and errno on failure.
static inline int cepoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// Adds `fd` with the events wanted and `id` as its data.
static inline int cepoll_add(int epfd, int fd, uint32_t events, uint64_t id) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = id;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

/// Changes the events wanted of `fd`.
static inline int cepoll_modify(int epfd, int fd, uint32_t events, uint64_t id) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = id;
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
}

/// Removes `fd`.
static inline int cepoll_remove(int epfd, int fd) {
    struct epoll_event event;
    event.events = 0;
    event.data.u64 = 0;
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

/// Waits up to `timeout` ms for at most `capacity` (<= 256) events; writes each one's id and
/// events to `ids` and `events`; returns their number (0 on timeout or EINTR, -1 on error).
static inline int cepoll_wait(int epfd, uint64_t *ids, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int n = epoll_wait(epfd, ready, capacity, timeout);
    for (int i = 0; i < n; i++) {
        ids[i] = ready[i].data.u64;
        events[i] = ready[i].events;
    }
    return n;
}

/// Glibc's Swift module leaves out accept4 (a GNU extension): declared here as <sys/socket.h>
/// declares it with _GNU_SOURCE.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// Accepts a connection already non-blocking and close-on-exec (no fcntl calls after it).
static inline int cepoll_accept(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif
