#include <zlib.h>

/* deflateInit2 is a macro (it passes ZLIB_VERSION and sizeof(z_stream)), which Swift cannot call. */
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
