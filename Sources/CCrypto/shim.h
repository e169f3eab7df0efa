// SPDX-License-Identifier: Apache-2.0
// Exposes OpenSSL's libcrypto (Debian libssl-dev) to Swift: SHA-256 for content hashes, and
// HMAC-SHA256 with a constant-time comparison (CRYPTO_memcmp) for imgproxy URL signatures.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
