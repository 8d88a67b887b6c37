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

/// The socket of `connection` (`MHD_CONNECTION_INFO_CONNECTION_FD`), or -1 when unknown.
int linkd_mhd_connection_fd(struct MHD_Connection *connection);

/// Called when libmicrohttpd queues an error answer of its own (status 400 and above: a malformed request
/// line or header, a bad `Content-Length`, a request head larger than its memory pool): returns the response
/// to send instead (the shim queues it and destroys it), or NULL. NULL with `*written` set to 1: the callback
/// wrote the whole answer to the socket itself, and the shim refuses the queueing, so that libmicrohttpd closes
/// the connection without writing anything more. NULL otherwise: libmicrohttpd's answer is sent.
typedef struct MHD_Response *(*linkd_mhd_error_response_callback)(void *owner, struct MHD_Connection *connection,
                                                                   unsigned int status_code, int *written);

/// What a connection's socket context (`MHD_OPTION_NOTIFY_CONNECTION`) points at: the shim reads it to answer
/// libmicrohttpd's own errors; `owner` belongs to whoever set the context. `phase_word` is where the
/// connection's current request is, stored by the thread serving the connection and read by a watchdog thread:
/// only through the functions below (relaxed atomic accesses); `body_bytes` likewise, the bytes of the current
/// request's body received so far.
struct linkd_mhd_socket_context {
    linkd_mhd_error_response_callback error_response;
    void *owner;
    uint64_t phase_word;
    uint64_t body_bytes;
};

/// The connection's `linkd_mhd_socket_context`, or NULL when it has none.
struct linkd_mhd_socket_context *linkd_mhd_socket_context_of(struct MHD_Connection *connection);

/// Records that the connection's request entered `phase` (below 8): `(transitions << 3) | phase`, so a reader sees
/// a change even back to the same phase. A load and a store, no read-modify-write: one thread writes.
static inline void linkd_mhd_enter_phase(struct linkd_mhd_socket_context *context, uint64_t phase) {
    uint64_t old = __atomic_load_n(&context->phase_word, __ATOMIC_RELAXED);
    __atomic_store_n(&context->phase_word, (((old >> 3) + 1) << 3) | phase, __ATOMIC_RELAXED);
}

/// Adds `count` to `body_bytes` (0 for `count` 0: a new body starts). A load and a store: one thread writes.
static inline void linkd_mhd_count_body_bytes(struct linkd_mhd_socket_context *context, uint64_t count) {
    uint64_t old = count == 0 ? 0 : __atomic_load_n(&context->body_bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&context->body_bytes, old + count, __ATOMIC_RELAXED);
}

/// The current `body_bytes`.
static inline uint64_t linkd_mhd_body_bytes(const struct linkd_mhd_socket_context *context) {
    return __atomic_load_n(&context->body_bytes, __ATOMIC_RELAXED);
}

/// The current `phase_word`.
static inline uint64_t linkd_mhd_phase_word(const struct linkd_mhd_socket_context *context) {
    return __atomic_load_n(&context->phase_word, __ATOMIC_RELAXED);
}

/// libmicrohttpd's `MHD_queue_response` itself. The shim defines `MHD_queue_response` too, so that the calls
/// libmicrohttpd makes to it internally (through its PLT) when it answers an error by itself reach the shim
/// (see shim-interpose.c); linkd's own responses are queued through this function instead.
enum MHD_Result linkd_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                         struct MHD_Response *response);

/// Whether the dynamic linker binds `MHD_queue_response` to the shim's definition (the executable exports it),
/// that is whether libmicrohttpd's own error answers are replaced.
int linkd_mhd_error_answers_replaced(void);

#endif
