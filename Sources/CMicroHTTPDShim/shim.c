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
