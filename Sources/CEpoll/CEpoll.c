// A C file must not be empty on Darwin, where the Linux body below compiles to nothing.
void cepoll_nothing_outside_linux(void) {}

#ifdef __linux__
#define _GNU_SOURCE
#include "CEpoll.h"

int cepoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cepoll_add(int epfd, int fd, uint32_t events, uint64_t id) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = id;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

int cepoll_modify(int epfd, int fd, uint32_t events, uint64_t id) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = id;
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
}

int cepoll_remove(int epfd, int fd) {
    struct epoll_event event;
    event.events = 0;
    event.data.u64 = 0;
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

int cepoll_wait(int epfd, uint64_t *ids, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int n = epoll_wait(epfd, ready, capacity, timeout);
    for (int i = 0; i < n; i++) {
        ids[i] = ready[i].data.u64;
        events[i] = ready[i].events;
    }
    return n;
}

int cepoll_accept(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif
