// SPDX-License-Identifier: Apache-2.0
// Exposes OpenSSL's libcrypto digests (Debian libssl-dev) to Swift: SHA-256 for content hashes.
#include <openssl/evp.h>
#include <openssl/sha.h>
