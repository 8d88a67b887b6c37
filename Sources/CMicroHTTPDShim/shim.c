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

int linkd_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || length == 0) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, buffer, (socklen_t)length) == NULL ? -1 : 0;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            /* A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; show them as a.b.c.d. */
            return inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], buffer, (socklen_t)length) == NULL ? -1 : 0;
        }
        return inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t)length) == NULL ? -1 : 0;
    }
    return -1;
}

int linkd_mhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? -1 : (int)info->num_connections;
}
