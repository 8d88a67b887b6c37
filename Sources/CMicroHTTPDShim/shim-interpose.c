/* libmicrohttpd 0.9.75 answers some errors by itself, before any callback of ours runs: a request line or
 * header section larger than its memory pool (414, 431), a malformed request line or header line (400), an
 * unsupported HTTP version (505), a bad Content-Length or chunk size (400, 413). Each such answer is made in
 * its static transmit_error_response_len() with MHD_create_response_from_buffer() and MHD_queue_response(),
 * a bare HTML body without Content-Type. libmicrohttpd calls MHD_queue_response through its PLT, so the
 * definition below, exported by the executable, is the one those calls reach (the dynamic linker searches the
 * executable first): it asks the connection's socket context for a problem+json response and queues that
 * instead. linkd's own responses go through linkd_mhd_queue_response, straight to libmicrohttpd's function. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include "CMicroHTTPDShim.h"

typedef enum MHD_Result (*queue_response_function)(struct MHD_Connection *, unsigned int, struct MHD_Response *);

/* libmicrohttpd's MHD_queue_response: "RTLD_NEXT: find the next occurrence of the desired symbol in the search
 * order after the current object" (dlsym(3)), resolved once when the program is loaded. */
static queue_response_function library_queue_response;

__attribute__((constructor)) static void linkd_mhd_resolve_queue_response(void) {
    library_queue_response = (queue_response_function)dlsym(RTLD_NEXT, "MHD_queue_response");
}

enum MHD_Result linkd_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                         struct MHD_Response *response) {
    if (library_queue_response == NULL) return MHD_NO;
    return library_queue_response(connection, status_code, response);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response) {
    if (library_queue_response == NULL) return MHD_NO;
    if (status_code >= 400 && connection != NULL) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        const struct linkd_mhd_socket_context *context = info == NULL ? NULL : info->socket_context;
        if (context != NULL && context->error_response != NULL) {
            int written = 0;
            struct MHD_Response *replacement = context->error_response(context->owner, connection, status_code, &written);
            /* "If the response cannot be queued, the connection is closed" (transmit_error_response_len). */
            if (replacement == NULL && written) return MHD_NO;
            if (replacement != NULL) {
                enum MHD_Result result = library_queue_response(connection, status_code, replacement);
                MHD_destroy_response(replacement);   /* queued responses are reference-counted */
                return result;
            }
        }
    }
    return library_queue_response(connection, status_code, response);
}

int linkd_mhd_error_answers_replaced(void) {
    return library_queue_response != NULL && dlsym(RTLD_DEFAULT, "MHD_queue_response") == (void *)MHD_queue_response;
}
