#include "CMicroHTTPDShim.h"

struct MHD_Daemon *linkd_mhd_start_daemon(unsigned int flags,
                                          uint16_t port,
                                          MHD_AccessHandlerCallback handler,
                                          void *handler_cls,
                                          const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t linkd_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

/* Dotted-quad IPv4 without inet_ntop, whose sprintf showed in per-request profiles. */
static int format_ipv4(const unsigned char *octets, char *buffer, size_t length) {
    if (length < 16) return -1;
    char *out = buffer;
    for (int i = 0; i < 4; i++) {
        unsigned value = octets[i];
        if (value >= 100) { *out++ = (char)('0' + value / 100); value %= 100; *out++ = (char)('0' + value / 10); value %= 10; }
        else if (value >= 10) { *out++ = (char)('0' + value / 10); value %= 10; }
        *out++ = (char)('0' + value);
        *out++ = i < 3 ? '.' : '\0';
    }
    return 0;
}

int linkd_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || length == 0) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return format_ipv4((const unsigned char *)&v4->sin_addr, buffer, length);
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            /* A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; show them as a.b.c.d. */
            return format_ipv4(&v6->sin6_addr.s6_addr[12], buffer, length);
        }
        return inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t)length) == NULL ? -1 : 0;
    }
    return -1;
}

int linkd_mhd_client_address_bytes(struct MHD_Connection *connection, unsigned char bytes[16]) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        memset(bytes, 0, 10);
        bytes[10] = 0xFF;
        bytes[11] = 0xFF;
        memcpy(bytes + 12, &v4->sin_addr, 4);
        return 0;
    }
    if (address->sa_family == AF_INET6) {
        memcpy(bytes, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 0;
    }
    return -1;
}

int linkd_mhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? -1 : (int)info->num_connections;
}

size_t linkd_mhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

int linkd_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

struct linkd_mhd_socket_context *linkd_mhd_socket_context_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : (struct linkd_mhd_socket_context *)info->socket_context;
}
