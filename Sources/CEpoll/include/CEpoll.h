#ifndef HEATMAPKIT_CEPOLL_H
#define HEATMAPKIT_CEPOLL_H

/// epoll and accept4 for Swift, on Linux only: elsewhere this module is empty, so a target
/// can depend on it on every platform (as swift-nio's CNIOLinux) and the Swift side names it
/// only inside `#if os(Linux)`. Glibc's Swift module exports neither <sys/epoll.h> nor
/// accept4 (a GNU extension), and `struct epoll_event` is packed on x86-64, so these
/// functions take and give plain values.
#ifdef __linux__
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>

static const uint32_t cepoll_in = EPOLLIN;
static const uint32_t cepoll_out = EPOLLOUT;
static const uint32_t cepoll_err = EPOLLERR;
static const uint32_t cepoll_hup = EPOLLHUP;

/// A new epoll instance, close-on-exec; -1 and errno on failure.
int cepoll_create(void);

/// Adds `fd` with the events wanted and `id` as its data.
int cepoll_add(int epfd, int fd, uint32_t events, uint64_t id);

/// Changes the events wanted of `fd`.
int cepoll_modify(int epfd, int fd, uint32_t events, uint64_t id);

/// Removes `fd`.
int cepoll_remove(int epfd, int fd);

/// Waits up to `timeout` ms for at most `capacity` (<= 256) events; writes each one's id and
/// events to `ids` and `events`; returns their number (0 on timeout, -1 and errno on error).
int cepoll_wait(int epfd, uint64_t *ids, uint32_t *events, int capacity, int timeout);

/// Accepts a connection already non-blocking and close-on-exec (accept4: no fcntl after it).
int cepoll_accept(int fd, struct sockaddr *address, socklen_t *length);
#endif

#endif
