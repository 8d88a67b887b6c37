#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/param_build.h>
#include <openssl/core_names.h>

/* EVP_PKEY_PUBLIC_KEY is a macro built of other macros, which Swift does not import: the selection
   EVP_PKEY_fromdata(3) takes to build a public key (the OpenID module's JSON Web Keys). */
static inline int ccrypto_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
