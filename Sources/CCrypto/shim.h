// SPDX-License-Identifier: Apache-2.0
// Exposes OpenSSL's libcrypto (Debian libssl-dev) to Swift: SHA-256 for content hashes, and
// HMAC-SHA256 with a constant-time comparison (CRYPTO_memcmp) for imgproxy URL signatures, and
// scrypt/PBKDF2 with RAND_bytes for the web app's password hashes and session tokens.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
