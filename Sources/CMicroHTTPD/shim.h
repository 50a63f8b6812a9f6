#ifndef PLUMB_CMICROHTTPD_SHIM_H
#define PLUMB_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// Swift cannot call C's variadic functions, and libmicrohttpd configures its daemon and answers
// its info queries through them. Each wrapper below fixes the arguments `plumb serve` uses; the
// variadic calls stay in this file.

/// Starts a daemon on `address` (IPv4, in network order as `struct sockaddr_in`): one thread per
/// connection, so a handler may block while a learner's run streams; no error log on stderr (the
/// server logs its own line per request).
/// - Returns: NULL when it cannot listen there (the port taken, the address not this machine's).
static inline struct MHD_Daemon *plumb_mhd_start(
    const struct sockaddr_in *address, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, unsigned int connection_limit,
    unsigned int per_address_limit, unsigned int timeout_seconds, size_t connection_memory) {
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    return MHD_start_daemon(
        flags, ntohs(address->sin_port), NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory,
        MHD_OPTION_END);
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
