// libsodium: Argon2id password hashing, BLAKE2b, random bytes, memory wiping
// (Debian libsodium-dev).
#include <sodium.h>
