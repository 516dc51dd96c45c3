// CTPMShim: the TPM 2.0 command sequences a TPM-bound pattern needs, over tpm2-tss's
// ESAPI (sessions, parameter encryption, response HMAC checks) and its marshalling.
//
// Why C: ESAPI's parameters are TPM2B structures (a size and a fixed array inside
// unions), which Swift sees as tuples of hundreds of elements. Here each sequence is a
// readable list of ESAPI calls; Swift sees byte buffers and one outcome code.
//
// What is on the TPM (docs/security.md, "The TPM"):
// - a PIN Fail NV index whose authValue is the pattern's Argon2id output: the TPM counts
//   failed authorisations in its pinCount and refuses the authValue once pinCount
//   reaches pinLimit; a success sets pinCount back to 0;
// - a sealed 32-byte secret under the storage key whose only authorisation is
//   PolicySecret on that index, so unsealing it needs the pattern, judged by the TPM;
// - a recovery object whose authValue is the recovery key; the index can be written
//   (pinCount reset) only through PolicySecret on it, so the hardware count is lifted
//   only with the recovery key, never by root alone.
// Every session is salted to the storage key, whose Name was saved at enrolment, and
// encrypts what crosses the bus.
#ifndef PATTERNLOCK_CTPMSHIM_H
#define PATTERNLOCK_CTPMSHIM_H

#include <stddef.h>
#include <stdint.h>

/// What a pl_tpm_ call found.
typedef enum {
  /// Done (for pl_tpm_unseal: the secret is in `secret`).
  PL_TPM_OK = 0,
  /// The pattern (or the recovery key) was wrong; the TPM counted it.
  PL_TPM_WRONG = 1,
  /// The index's pinCount reached pinLimit: the TPM refuses every pattern until the
  /// recovery key resets it.
  PL_TPM_LOCKED_OUT = 2,
  /// This is not the TPM the pattern was enrolled with (another chip, a cleared one, or
  /// the index or objects are gone): nothing it says can unlock.
  PL_TPM_NOT_ENROLLED_HERE = 3,
  /// The TCTI could not be opened or the TPM did not answer.
  PL_TPM_UNREACHABLE = 4,
  /// A TPM command failed otherwise; `rc` and `step` say which.
  PL_TPM_FAILED = 5,
  /// Every NV index of patternlock's range is in use.
  PL_TPM_NO_FREE_INDEX = 6,
  /// tpm2-tss (opened at the first call, not linked) or one of its functions is
  /// missing: pl_tpm_library_problem says which.
  PL_TPM_LIBRARY_MISSING = 7,
} pl_tpm_code;

/// The largest marshalled TPM2B_PUBLIC and TPM2B_PRIVATE kept in the state.
enum { PL_TPM_BLOB_MAXIMUM = 1024, PL_TPM_NAME_MAXIMUM = 68 };

/// The first of the 16 owner NV indexes patternlock may use (TCG handle registry:
/// 0x01000000-0x013FFFFF belong to the owner; this block is near its end, away from
/// the indexes tools hand out from its start).
#define PL_TPM_INDEX_FIRST 0x013F5040u
#define PL_TPM_INDEX_COUNT 16u

/// What the state directory keeps of an enrolment: nothing here can test a guess.
typedef struct {
  uint8_t storage_key_name[PL_TPM_NAME_MAXIMUM];
  size_t storage_key_name_size;
  uint32_t index;
  uint8_t index_name[PL_TPM_NAME_MAXIMUM];
  size_t index_name_size;
  uint8_t sealed_public[PL_TPM_BLOB_MAXIMUM];
  size_t sealed_public_size;
  uint8_t sealed_private[PL_TPM_BLOB_MAXIMUM];
  size_t sealed_private_size;
  uint8_t recovery_public[PL_TPM_BLOB_MAXIMUM];
  size_t recovery_public_size;
  uint8_t recovery_private[PL_TPM_BLOB_MAXIMUM];
  size_t recovery_private_size;
} pl_tpm_binding;

/// The outcome of a call: the code, the TPM or TSS response code and the step it
/// came from (a short name such as "PolicySecret"), for messages.
typedef struct {
  pl_tpm_code code;
  uint32_t rc;
  char step[40];
} pl_tpm_status;

/// An open connection to one TPM (ESAPI context over a TCTI), with its storage key.
typedef struct pl_tpm pl_tpm;

/// Opens the TPM named by `tcti` (a tpm2-tss TCTI string such as
/// "device:/dev/tpmrm0"), with a time limit on every command so that a TPM that stops
/// answering is "unreachable", never a hang, and creates the storage key.
pl_tpm *pl_tpm_open(const char *tcti, pl_tpm_status *status);
void pl_tpm_close(pl_tpm *tpm);

/// Enrols: a fresh index (the first free one of patternlock's range) with `auth` (32
/// bytes) and `limit`, a recovery object with `recovery_key` (32 bytes), and `secret`
/// (32 bytes) sealed to the index. Fills `binding`.
pl_tpm_status pl_tpm_enrol(pl_tpm *tpm, const uint8_t *auth, const uint8_t *recovery_key, const uint8_t *secret,
                           uint32_t limit, pl_tpm_binding *binding);

/// Checks that this TPM holds `binding` (storage key and index Names) and reads the
/// index's counter without using the pattern (owner read).
pl_tpm_status pl_tpm_check(pl_tpm *tpm, const pl_tpm_binding *binding, uint32_t *failures, uint32_t *limit);

/// Asks the TPM to judge `auth` (32 bytes): PolicySecret on the index, then Unseal.
/// PL_TPM_OK leaves the unsealed secret in `secret` (32 bytes) for the caller to check
/// against the state; PL_TPM_WRONG means the TPM counted a failure.
pl_tpm_status pl_tpm_unseal(pl_tpm *tpm, const pl_tpm_binding *binding, const uint8_t *auth, uint8_t *secret);

/// Sets the index's pinCount back to 0 with the recovery key (32 bytes) and `limit`.
/// PL_TPM_WRONG: the key is not the enrolment's.
pl_tpm_status pl_tpm_recover(pl_tpm *tpm, const pl_tpm_binding *binding, const uint8_t *recovery_key, uint32_t limit);

/// Undefines every index of patternlock's range except `keep` (0: all of them), so
/// an index of an earlier enrolment cannot be guessed against later.
pl_tpm_status pl_tpm_forget_others(pl_tpm *tpm, uint32_t keep);

/// What the TPM says of its maker (TPM2_GetCapability of TPM_PT_MANUFACTURER and
/// TPM_PT_VENDOR_STRING_1 to 4), each four-byte value as its characters, NULs left out.
typedef struct {
  char manufacturer[5];
  char vendor[17];
} pl_tpm_vendor_strings;

/// Reads the TPM's manufacturer and vendor strings (swtpm says "IBM" and "SW   TPM").
pl_tpm_status pl_tpm_vendor(pl_tpm *tpm, pl_tpm_vendor_strings *strings);

/// The TPM's dictionary-attack protection as it stands (TPM2_GetCapability of
/// TPM_PT_PERMANENT to TPM_PT_LOCKOUT_RECOVERY): the authorisation failures counted, how
/// many put it in lockout, the seconds after which one failure is forgotten and after
/// which the lockout auth may be tried again, and whether it is in lockout now.
typedef struct {
  uint32_t failures;
  uint32_t maximum;
  uint32_t interval_seconds;
  uint32_t recovery_seconds;
  int in_lockout;
} pl_tpm_lockout;

/// Reads the dictionary-attack state (what `tpm2_getcap properties-variable` shows).
pl_tpm_status pl_tpm_dictionary_attack(pl_tpm *tpm, pl_tpm_lockout *lockout);

/// The text tpm2-tss gives for a response code ("" without tpm2-tss).
const char *pl_tpm_describe(uint32_t rc);

/// NULL once tpm2-tss is loaded (loading it if no call has yet); otherwise which
/// library or function could not be, with the dynamic loader's reason.
const char *pl_tpm_library_problem(void);

#endif
