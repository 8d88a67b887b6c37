#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Non-variadic front of `MHD_start_daemon`: Swift cannot call C-variadic functions.
/// `options` is an array terminated by an entry whose `option` is `MHD_OPTION_END`.
struct MHD_Daemon *linkd_mhd_start_daemon(unsigned int flags,
                                          uint16_t port,
                                          MHD_AccessHandlerCallback handler,
                                          void *handler_cls,
                                          const struct MHD_OptionItem *options);

/// The port a daemon bound to (useful after binding port 0), or 0 when unknown.
uint16_t linkd_mhd_bound_port(struct MHD_Daemon *daemon);

/// Writes the client's numeric address ("127.0.0.1", "::1"; IPv4-mapped IPv6 addresses as plain IPv4)
/// into `buffer` (NUL-terminated). Returns 0 on success, -1 when unknown.
/// `MHD_get_connection_info` is C-variadic, hence this wrapper.
int linkd_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t length);

/// Writes the client's address as 16 bytes into `bytes` (IPv4 as IPv4-mapped IPv6, `::ffff:a.b.c.d`).
/// Returns 0 on success, -1 when unknown.
int linkd_mhd_client_address_bytes(struct MHD_Connection *connection, unsigned char bytes[16]);

/// Number of connections the daemon currently holds open, or -1 when unknown.
int linkd_mhd_current_connections(struct MHD_Daemon *daemon);

/// `MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`: the bytes of the request's head in MHD's read buffer, from the
/// request line's first byte through the empty line that ends the header section; 0 when unknown.
size_t linkd_mhd_request_header_size(struct MHD_Connection *connection);

#endif
