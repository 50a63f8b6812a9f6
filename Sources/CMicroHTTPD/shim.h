#ifndef PLUMB_CMICROHTTPD_SHIM_H
#define PLUMB_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/resource.h>
#include <pthread.h>
#include <microhttpd.h>

// glibc declares prlimit only under _GNU_SOURCE, which the Swift importer does not define. The
// room sets a learner's child's memory limit with it, from the server, before the child reads.
extern int prlimit(pid_t pid, __rlimit_resource_t resource, const struct rlimit *new_limit, struct rlimit *old_limit);

/// Sets `pid`'s data segment limit (RLIMIT_DATA) to `bytes`, soft and hard. 0 on success.
static inline int plumb_limit_data(pid_t pid, unsigned long long bytes) {
    struct rlimit limit = {(rlim_t)bytes, (rlim_t)bytes};
    return prlimit(pid, RLIMIT_DATA, &limit, NULL);
}

// glibc declares pthread_setattr_default_np only under _GNU_SOURCE too.
extern int pthread_setattr_default_np(const pthread_attr_t *attr);

/// Sets the stack size of every thread this process starts from now on without a size of its
/// own (Dispatch's workers, Swift's cooperative pool, Foundation's `Thread`) to `bytes`. 0 on
/// success. The main thread's stack is not changed.
static inline int plumb_set_default_thread_stack(size_t bytes) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return -1;
    int failed = pthread_attr_setstacksize(&attributes, bytes);
    if (failed == 0) failed = pthread_setattr_default_np(&attributes);
    pthread_attr_destroy(&attributes);
    return failed;
}

// Swift cannot call C's variadic functions, and libmicrohttpd configures its daemon and answers
// its info queries through them. Each wrapper below fixes the arguments `plumb serve` uses; the
// variadic calls stay in this file.

/// Starts a daemon on `address` (`struct sockaddr_in` or `struct sockaddr_in6`, `length` bytes):
/// an internal polling thread (epoll on Linux, chosen by MHD_USE_AUTO) with a pool of `threads`
/// threads, and suspend/resume allowed, so a streamed body with nothing to send parks its
/// connection instead of holding a thread. `dual_stack` (for `::`) also accepts IPv4 clients. No
/// error log on stderr (the server logs its own line per request).
/// - Returns: NULL when it cannot listen there (the port taken, the address not this machine's).
static inline struct MHD_Daemon *plumb_mhd_start(
    const struct sockaddr *address, int dual_stack, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, unsigned int connection_limit,
    unsigned int per_address_limit, unsigned int timeout_seconds, size_t connection_memory, unsigned int threads) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    uint16_t port = 0;
    if (address->sa_family == AF_INET6) {
        flags |= dual_stack ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
        port = ntohs(((const struct sockaddr_in6 *)address)->sin6_port);
    } else {
        port = ntohs(((const struct sockaddr_in *)address)->sin_port);
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory,
        MHD_OPTION_END);
}

/// Sets how long `connection` may stay idle, in seconds (the daemon's timeout is the shorter one
/// for requests that have not sent their headers yet).
static inline void plumb_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The port the daemon listens on (the one the system chose for port 0), or 0.
static inline uint16_t plumb_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// Writes the client's address as text into `buffer` ("127.0.0.1", "::1"); "?" when unknown.
static inline void plumb_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (size == 0) return;
    buffer[0] = 0;
    if (info == NULL || info->client_addr == NULL) {
        strncpy(buffer, "?", size);
        return;
    }
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
    } else {
        strncpy(buffer, "?", size);
    }
    buffer[size - 1] = 0;
}

#endif
