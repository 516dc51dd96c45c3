// The TPM 2.0 sequences of CTPMShim.h, over ESAPI. Each function opens the sessions
// it needs, salted to the storage key (so the session keys, and with them the HMACs
// over the pattern's authValue and the encrypted parameters, are unknown to anyone on
// the bus), and flushes them before it returns, whatever happened.
#include "CTPMShim.h"
#include "TPMWireFormat.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_sys.h>
#include <tss2/tss2_tctildr.h>

// tpm2-tss is opened at the first TPM call, not linked: ESAPI brings libcrypto with it,
// and loading and relocating them was a sixth of the lock's start-up, spent on every
// start although only a TPM-bound pattern uses them. Each pointer has the type of the
// header's prototype, so a prototype that disagrees with the call is a compile error.
// The sonames are also in scripts/lib/elf.sh, so that the packages stay installed.
#define PL_TSS2_LIBRARIES(X)                                                                   \
  X(esys, "libtss2-esys.so.0")                                                                 \
  X(sys, "libtss2-sys.so.1")                                                                   \
  X(tctildr, "libtss2-tctildr.so.0")                                                           \
  X(rc, "libtss2-rc.so.0")

#define PL_TSS2_FUNCTIONS(X)                                                                   \
  X(esys, Esys_Initialize)                                                                     \
  X(esys, Esys_Finalize)                                                                       \
  X(esys, Esys_Free)                                                                           \
  X(esys, Esys_SetTimeout)                                                                     \
  X(esys, Esys_GetSysContext)                                                                  \
  X(esys, Esys_GetCapability)                                                                  \
  X(esys, Esys_FlushContext)                                                                   \
  X(esys, Esys_StartAuthSession)                                                               \
  X(esys, Esys_TRSess_SetAttributes)                                                           \
  X(esys, Esys_TR_Close)                                                                       \
  X(esys, Esys_TR_FromTPMPublic)                                                               \
  X(esys, Esys_TR_GetName)                                                                     \
  X(esys, Esys_TR_SetAuth)                                                                     \
  X(esys, Esys_CreatePrimary)                                                                  \
  X(esys, Esys_Create)                                                                         \
  X(esys, Esys_Load)                                                                           \
  X(esys, Esys_Unseal)                                                                         \
  X(esys, Esys_PolicySecret)                                                                   \
  X(esys, Esys_PolicyCommandCode)                                                              \
  X(esys, Esys_PolicyGetDigest)                                                                \
  X(esys, Esys_NV_DefineSpace)                                                                 \
  X(esys, Esys_NV_UndefineSpace)                                                               \
  X(esys, Esys_NV_Read)                                                                        \
  X(esys, Esys_NV_Write)                                                                       \
  X(sys, Tss2_Sys_FlushContext)                                                                \
  X(tctildr, Tss2_TctiLdr_Initialize)                                                          \
  X(tctildr, Tss2_TctiLdr_Finalize)                                                            \
  X(rc, Tss2_RC_Decode)

#define PL_TSS2_SONAME(library, soname) static const char library##_soname[] = soname;
PL_TSS2_LIBRARIES(PL_TSS2_SONAME)
#undef PL_TSS2_SONAME

#define PL_TSS2_POINTER(library, name) __typeof__(name) *name;
static struct {
  PL_TSS2_FUNCTIONS(PL_TSS2_POINTER)
} tss2;
#undef PL_TSS2_POINTER

/// Empty once tpm2-tss is loaded; otherwise what could not be (a library or a
/// function, with dlerror's words).
static char tss2_problem[240];
static pthread_once_t tss2_once = PTHREAD_ONCE_INIT;

/// The file to open for `soname`. Debug builds (SwiftPM defines DEBUG for them; release
/// builds do not contain the seam) open PATTERNLOCK_TEST_TSS2_ESYS in ESAPI's place, so
/// a test can see a missing tpm2-tss refuse to judge.
static const char *file_for(const char *soname) {
#ifdef DEBUG
  const char *instead = getenv("PATTERNLOCK_TEST_TSS2_ESYS");
  if (instead && *instead && soname == esys_soname) return instead;
#endif
  return soname;
}

static void load_tss2(void) {
#define PL_TSS2_HANDLE(library, soname) void *library = NULL;
  PL_TSS2_LIBRARIES(PL_TSS2_HANDLE)
#undef PL_TSS2_HANDLE
  // RTLD_LOCAL: nothing else in the process should bind to their symbols (or to
  // libcrypto's) by accident. The handles stay open for the process's life.
#define PL_TSS2_OPEN(library, soname)                                                          \
  library = dlopen(file_for(library##_soname), RTLD_NOW | RTLD_LOCAL);                         \
  if (!library) {                                                                              \
    const char *reason = dlerror();                                                            \
    snprintf(tss2_problem, sizeof(tss2_problem), "%s cannot be loaded (%s)",                   \
             file_for(library##_soname), reason ? reason : "no reason given");                 \
    return;                                                                                    \
  }
  PL_TSS2_LIBRARIES(PL_TSS2_OPEN)
#undef PL_TSS2_OPEN
  // The function pointers come from dlsym's void *, which C allows only through a copy.
#define PL_TSS2_RESOLVE(library, name)                                                         \
  {                                                                                            \
    void *found = dlsym(library, #name);                                                       \
    if (!found) {                                                                              \
      const char *reason = dlerror();                                                          \
      snprintf(tss2_problem, sizeof(tss2_problem), "%s has no %s (%s)", library##_soname,      \
               #name, reason ? reason : "no reason given");                                    \
      memset(&tss2, 0, sizeof(tss2));                                                          \
      return;                                                                                  \
    }                                                                                          \
    memcpy(&tss2.name, &found, sizeof(found));                                                 \
  }
  PL_TSS2_FUNCTIONS(PL_TSS2_RESOLVE)
#undef PL_TSS2_RESOLVE
}

/// Loads tpm2-tss the first time it is asked; 1 when every function is there.
static int tss2_loaded(void) {
  pthread_once(&tss2_once, load_tss2);
  return tss2_problem[0] == 0;
}

const char *pl_tpm_library_problem(void) { return tss2_loaded() ? NULL : tss2_problem; }

struct pl_tpm {
  TSS2_TCTI_CONTEXT *tcti;
  ESYS_CONTEXT *esys;
  ESYS_TR storage_key;
};

/// Long enough for a slow SPI TPM creating its storage key, short enough that a TPM
/// that stopped answering leaves the lock screen saying so instead of hanging.
static const int32_t command_time_limit_ms = 20000;

static const TPMT_SYM_DEF session_cipher = {
    .algorithm = TPM2_ALG_AES, .keyBits = {.aes = 128}, .mode = {.aes = TPM2_ALG_CFB}};

static pl_tpm_status outcome(pl_tpm_code code, TSS2_RC rc, const char *step) {
  pl_tpm_status status = {.code = code, .rc = rc};
  strncpy(status.step, step, sizeof(status.step) - 1);
  return status;
}

static pl_tpm_status done(void) { return outcome(PL_TPM_OK, 0, ""); }

/// A failed command's outcome: a TCTI error or time-out is "unreachable", anything
/// else "failed".
static pl_tpm_status failure(TSS2_RC rc, const char *step) {
  TSS2_RC layer = rc & TSS2_RC_LAYER_MASK;
  if (layer == TSS2_TCTI_RC_LAYER || rc == TSS2_ESYS_RC_TRY_AGAIN || rc == TSS2_ESYS_RC_IO_ERROR)
    return outcome(PL_TPM_UNREACHABLE, rc, step);
  return outcome(PL_TPM_FAILED, rc, step);
}

/// The TPM's own response code without the handle, session or parameter number.
static TSS2_RC bare_code(TSS2_RC rc) {
  if ((rc & TSS2_RC_LAYER_MASK) != TSS2_TPM_RC_LAYER) return rc;
  return (rc & TPM2_RC_FMT1) ? (rc & (TPM2_RC_FMT1 | 0x3F)) : rc;
}

static int is_wrong_authorisation(TSS2_RC rc) {
  TSS2_RC code = bare_code(rc);
  return code == TPM2_RC_AUTH_FAIL || code == TPM2_RC_BAD_AUTH;
}

static void flush(pl_tpm *tpm, ESYS_TR *handle) {
  if (*handle != ESYS_TR_NONE) tss2.Esys_FlushContext(tpm->esys, *handle);
  *handle = ESYS_TR_NONE;
}

static void forget_handle(pl_tpm *tpm, ESYS_TR *handle) {
  if (*handle != ESYS_TR_NONE) tss2.Esys_TR_Close(tpm->esys, handle);
  *handle = ESYS_TR_NONE;
}

/// A salted session (HMAC or policy) that stays open until flushed. `encryption`:
/// TPMA_SESSION_DECRYPT to encrypt the first command parameter (an authValue or a
/// secret sent to the TPM), TPMA_SESSION_ENCRYPT the first response parameter (the
/// unsealed secret). A policy session that authorises NV_Write gets neither: the
/// counter it writes is no secret, and the TPM and ESAPI would disagree on whether the
/// index's authValue keys that encryption.
static TSS2_RC salted_session(pl_tpm *tpm, TPM2_SE type, TPMA_SESSION encryption, ESYS_TR *session) {
  TSS2_RC rc = tss2.Esys_StartAuthSession(tpm->esys, tpm->storage_key, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                                          ESYS_TR_NONE, NULL, type, &session_cipher, TPM2_ALG_SHA256, session);
  if (rc != TSS2_RC_SUCCESS) return rc;
  return tss2.Esys_TRSess_SetAttributes(tpm->esys, *session, TPMA_SESSION_CONTINUESESSION | encryption, 0xFF);
}

static const TPMA_SESSION both_ways = TPMA_SESSION_DECRYPT | TPMA_SESSION_ENCRYPT;

static TSS2_RC trial_session(pl_tpm *tpm, ESYS_TR *session) {
  const TPMT_SYM_DEF none = {.algorithm = TPM2_ALG_NULL};
  return tss2.Esys_StartAuthSession(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                                    NULL, TPM2_SE_TRIAL, &none, TPM2_ALG_SHA256, session);
}

/// PolicySecret on `entity`, whose authValue is already set, authorised by `hmac`.
static TSS2_RC policy_secret(pl_tpm *tpm, ESYS_TR entity, ESYS_TR policy, ESYS_TR hmac) {
  const TPM2B_NONCE no_nonce = {.size = 0};
  const TPM2B_DIGEST no_cp_hash = {.size = 0};
  const TPM2B_NONCE no_reference = {.size = 0};
  TPM2B_TIMEOUT *timeout = NULL;
  TPMT_TK_AUTH *ticket = NULL;
  TSS2_RC rc = tss2.Esys_PolicySecret(tpm->esys, entity, policy, hmac, ESYS_TR_NONE, ESYS_TR_NONE, &no_nonce,
                                      &no_cp_hash, &no_reference, 0, &timeout, &ticket);
  tss2.Esys_Free(timeout);
  tss2.Esys_Free(ticket);
  return rc;
}

static void set_auth(pl_tpm *tpm, ESYS_TR entity, const uint8_t *bytes) {
  TPM2B_AUTH auth = {.size = 32};
  memcpy(auth.buffer, bytes, 32);
  tss2.Esys_TR_SetAuth(tpm->esys, entity, &auth);
  memset(auth.buffer, 0, sizeof(auth.buffer));
}

/// The storage key: an ECC P-256 restricted decryption key in the owner hierarchy
/// (the TCG's SRK shape). The same TPM makes the same key, and so the same Name, every
/// time; a cleared or different TPM makes another.
static TSS2_RC create_storage_key(pl_tpm *tpm) {
  const TPM2B_SENSITIVE_CREATE sensitive = {.size = 0};
  TPM2B_PUBLIC template = {
      .publicArea = {
          .type = TPM2_ALG_ECC,
          .nameAlg = TPM2_ALG_SHA256,
          .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN |
                              TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA | TPMA_OBJECT_RESTRICTED |
                              TPMA_OBJECT_DECRYPT,
          .parameters = {.eccDetail = {.symmetric = {.algorithm = TPM2_ALG_AES,
                                                     .keyBits = {.aes = 128},
                                                     .mode = {.aes = TPM2_ALG_CFB}},
                                       .scheme = {.scheme = TPM2_ALG_NULL},
                                       .curveID = TPM2_ECC_NIST_P256,
                                       .kdf = {.scheme = TPM2_ALG_NULL}}},
      }};
  const TPM2B_DATA outside = {.size = 0};
  const TPML_PCR_SELECTION no_pcrs = {.count = 0};
  TPM2B_PUBLIC *public_area = NULL;
  TPM2B_CREATION_DATA *creation = NULL;
  TPM2B_DIGEST *creation_hash = NULL;
  TPMT_TK_CREATION *ticket = NULL;
  TSS2_RC rc = tss2.Esys_CreatePrimary(tpm->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                                       &sensitive, &template, &outside, &no_pcrs, &tpm->storage_key, &public_area,
                                       &creation, &creation_hash, &ticket);
  tss2.Esys_Free(public_area);
  tss2.Esys_Free(creation);
  tss2.Esys_Free(creation_hash);
  tss2.Esys_Free(ticket);
  return rc;
}

/// Flushes the transient objects and sessions this connection can see. Behind the
/// kernel's resource manager (/dev/tpmrm0) a connection sees only its own, so this
/// flushes nothing; on a TPM reached directly (/dev/tpm0, swtpm) it flushes what a
/// killed patternlock left behind, which would otherwise fill the TPM's few object
/// slots until it refuses to judge.
static void flush_leftovers(pl_tpm *tpm) {
  TSS2_SYS_CONTEXT *sys = NULL;
  if (tss2.Esys_GetSysContext(tpm->esys, &sys) != TSS2_RC_SUCCESS || !sys) return;
  const uint32_t firsts[] = {TPM2_TRANSIENT_FIRST, TPM2_LOADED_SESSION_FIRST};
  for (size_t kind = 0; kind < 2; kind++) {
    TPMI_YES_NO more = TPM2_NO;
    // Allocated by the library rather than on this stack: TPMS_CAPABILITY_DATA grew
    // between tpm2-tss releases that share a soname, so this build's size of it may be
    // smaller than the one the library writes.
    TPMS_CAPABILITY_DATA *data = NULL;
    if (tss2.Esys_GetCapability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_HANDLES, firsts[kind],
                                TPM2_MAX_CAP_HANDLES, &more, &data) != TSS2_RC_SUCCESS)
      continue;
    for (uint32_t i = 0; i < data->data.handles.count; i++)
      tss2.Tss2_Sys_FlushContext(sys, data->data.handles.handle[i]);
    tss2.Esys_Free(data);
  }
}

pl_tpm *pl_tpm_open(const char *tcti, pl_tpm_status *status) {
  // Every other call needs the pl_tpm this returns, so this is where a missing
  // tpm2-tss stops them all.
  if (!tss2_loaded()) {
    *status = outcome(PL_TPM_LIBRARY_MISSING, 0, "dlopen");
    return NULL;
  }
  // tpm2-tss logs every TPM error to stderr; a wrong pattern is one. The outcome says
  // what happened; TSS2_LOG set by whoever debugs still wins.
  setenv("TSS2_LOG", "all+NONE", 0);
  pl_tpm *tpm = calloc(1, sizeof(pl_tpm));
  if (!tpm) {
    *status = outcome(PL_TPM_FAILED, 0, "memory");
    return NULL;
  }
  tpm->storage_key = ESYS_TR_NONE;
  TSS2_RC rc = tss2.Tss2_TctiLdr_Initialize(tcti, &tpm->tcti);
  if (rc != TSS2_RC_SUCCESS) {
    *status = outcome(PL_TPM_UNREACHABLE, rc, "TCTI");
    free(tpm);
    return NULL;
  }
  rc = tss2.Esys_Initialize(&tpm->esys, tpm->tcti, NULL);
  if (rc != TSS2_RC_SUCCESS) {
    *status = outcome(PL_TPM_UNREACHABLE, rc, "Esys_Initialize");
    pl_tpm_close(tpm);
    return NULL;
  }
  tss2.Esys_SetTimeout(tpm->esys, command_time_limit_ms);
  flush_leftovers(tpm);
  rc = create_storage_key(tpm);
  if (rc != TSS2_RC_SUCCESS) {
    *status = failure(rc, "CreatePrimary");
    pl_tpm_close(tpm);
    return NULL;
  }
  *status = done();
  return tpm;
}

void pl_tpm_close(pl_tpm *tpm) {
  if (!tpm) return;
  if (tpm->esys) {
    flush(tpm, &tpm->storage_key);
    tss2.Esys_Finalize(&tpm->esys);
  }
  if (tpm->tcti) tss2.Tss2_TctiLdr_Finalize(&tpm->tcti);
  free(tpm);
}

const char *pl_tpm_describe(uint32_t rc) { return tss2_loaded() ? tss2.Tss2_RC_Decode(rc) : ""; }

/// Appends a property's four bytes, most significant first, leaving out NULs.
static void append_characters(uint32_t value, char *out, size_t capacity) {
  size_t length = strlen(out);
  for (int shift = 24; shift >= 0 && length + 1 < capacity; shift -= 8) {
    char c = (char)((value >> shift) & 0xff);
    if (c != 0) out[length++] = c;
  }
  out[length] = 0;
}

pl_tpm_status pl_tpm_vendor(pl_tpm *tpm, pl_tpm_vendor_strings *strings) {
  memset(strings, 0, sizeof *strings);
  TPMI_YES_NO more = TPM2_NO;
  TPMS_CAPABILITY_DATA *data = NULL;
  TSS2_RC rc = tss2.Esys_GetCapability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_TPM_PROPERTIES,
                                       TPM2_PT_MANUFACTURER, 5, &more, &data);
  if (rc != TSS2_RC_SUCCESS) return failure(rc, "GetCapability");
  for (uint32_t i = 0; i < data->data.tpmProperties.count; i++) {
    TPMS_TAGGED_PROPERTY property = data->data.tpmProperties.tpmProperty[i];
    if (property.property == TPM2_PT_MANUFACTURER)
      append_characters(property.value, strings->manufacturer, sizeof strings->manufacturer);
    else if (property.property >= TPM2_PT_VENDOR_STRING_1 && property.property <= TPM2_PT_VENDOR_STRING_4)
      append_characters(property.value, strings->vendor, sizeof strings->vendor);
  }
  tss2.Esys_Free(data);
  return done();
}

pl_tpm_status pl_tpm_dictionary_attack(pl_tpm *tpm, pl_tpm_lockout *lockout) {
  memset(lockout, 0, sizeof *lockout);
  TPMI_YES_NO more = TPM2_NO;
  TPMS_CAPABILITY_DATA *data = NULL;
  TSS2_RC rc = tss2.Esys_GetCapability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_TPM_PROPERTIES,
                                       TPM2_PT_PERMANENT, TPM2_PT_LOCKOUT_RECOVERY - TPM2_PT_PERMANENT + 1, &more, &data);
  if (rc != TSS2_RC_SUCCESS) return failure(rc, "GetCapability");
  for (uint32_t i = 0; i < data->data.tpmProperties.count; i++) {
    TPMS_TAGGED_PROPERTY property = data->data.tpmProperties.tpmProperty[i];
    switch (property.property) {
    case TPM2_PT_PERMANENT: lockout->in_lockout = (property.value & TPMA_PERMANENT_INLOCKOUT) != 0; break;
    case TPM2_PT_LOCKOUT_COUNTER: lockout->failures = property.value; break;
    case TPM2_PT_MAX_AUTH_FAIL: lockout->maximum = property.value; break;
    case TPM2_PT_LOCKOUT_INTERVAL: lockout->interval_seconds = property.value; break;
    case TPM2_PT_LOCKOUT_RECOVERY: lockout->recovery_seconds = property.value; break;
    default: break;
    }
  }
  tss2.Esys_Free(data);
  return done();
}

static int copy_name(pl_tpm *tpm, ESYS_TR handle, uint8_t *out, size_t *size) {
  TPM2B_NAME *name = NULL;
  if (tss2.Esys_TR_GetName(tpm->esys, handle, &name) != TSS2_RC_SUCCESS) return 0;
  int fits = name->size <= PL_TPM_NAME_MAXIMUM;
  if (fits) {
    memcpy(out, name->name, name->size);
    *size = name->size;
  }
  tss2.Esys_Free(name);
  return fits;
}

static int same_name(pl_tpm *tpm, ESYS_TR handle, const uint8_t *expected, size_t expected_size) {
  uint8_t name[PL_TPM_NAME_MAXIMUM];
  size_t size = 0;
  return copy_name(tpm, handle, name, &size) && size == expected_size && memcmp(name, expected, size) == 0;
}

/// The indexes of patternlock's range that are defined, as a bit per slot.
static TSS2_RC defined_indexes(pl_tpm *tpm, uint32_t *slots) {
  TPMI_YES_NO more = TPM2_NO;
  TPMS_CAPABILITY_DATA *data = NULL;
  TSS2_RC rc = tss2.Esys_GetCapability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CAP_HANDLES,
                                       PL_TPM_INDEX_FIRST, PL_TPM_INDEX_COUNT, &more, &data);
  if (rc != TSS2_RC_SUCCESS) return rc;
  *slots = 0;
  for (uint32_t i = 0; i < data->data.handles.count; i++) {
    uint32_t handle = data->data.handles.handle[i];
    if (handle >= PL_TPM_INDEX_FIRST && handle < PL_TPM_INDEX_FIRST + PL_TPM_INDEX_COUNT)
      *slots |= 1u << (handle - PL_TPM_INDEX_FIRST);
  }
  tss2.Esys_Free(data);
  return TSS2_RC_SUCCESS;
}

static TSS2_RC write_counter(pl_tpm *tpm, ESYS_TR index, ESYS_TR policy, uint32_t limit) {
  TPM2B_MAX_NV_BUFFER data = {.size = PL_WIRE_PIN_COUNTER_SIZE};
  pl_wire_write_pin_counter(0, limit, data.buffer);
  return tss2.Esys_NV_Write(tpm->esys, index, index, policy, ESYS_TR_NONE, ESYS_TR_NONE, &data, 0);
}

static int marshal_public(const TPM2B_PUBLIC *value, uint8_t *out, size_t *size) {
  return pl_wire_write_keyedhash_public(value, out, PL_TPM_BLOB_MAXIMUM, size);
}

static int marshal_private(const TPM2B_PRIVATE *value, uint8_t *out, size_t *size) {
  return pl_wire_write_private(value, out, PL_TPM_BLOB_MAXIMUM, size);
}

/// Creates an object under the storage key; its blobs go to `public_out`/`private_out`.
static TSS2_RC create_object(pl_tpm *tpm, ESYS_TR hmac, const TPM2B_SENSITIVE_CREATE *sensitive,
                             const TPM2B_PUBLIC *template, TPM2B_PUBLIC **public_out, TPM2B_PRIVATE **private_out) {
  const TPM2B_DATA outside = {.size = 0};
  const TPML_PCR_SELECTION no_pcrs = {.count = 0};
  TPM2B_CREATION_DATA *creation = NULL;
  TPM2B_DIGEST *creation_hash = NULL;
  TPMT_TK_CREATION *ticket = NULL;
  TSS2_RC rc = tss2.Esys_Create(tpm->esys, tpm->storage_key, hmac, ESYS_TR_NONE, ESYS_TR_NONE, sensitive, template,
                                &outside, &no_pcrs, private_out, public_out, &creation, &creation_hash, &ticket);
  tss2.Esys_Free(creation);
  tss2.Esys_Free(creation_hash);
  tss2.Esys_Free(ticket);
  return rc;
}

static TSS2_RC load_object(pl_tpm *tpm, ESYS_TR hmac, const uint8_t *public_bytes, size_t public_size,
                           const uint8_t *private_bytes, size_t private_size, ESYS_TR *object) {
  TPM2B_PUBLIC public_area;
  // Room beyond this build's TPM2B_PRIVATE: ESAPI copies the whole structure as the
  // library knows it, and a later tpm2-tss (same soname) knows a larger one.
  union {
    TPM2B_PRIVATE value;
    uint8_t room[2 * sizeof(TPM2B_PRIVATE)];
  } private_area;
  memset(&private_area, 0, sizeof(private_area));
  if (!pl_wire_read_keyedhash_public(public_bytes, public_size, &public_area) ||
      !pl_wire_read_private(private_bytes, private_size, &private_area.value))
    return TSS2_MU_RC_BAD_VALUE;
  return tss2.Esys_Load(tpm->esys, tpm->storage_key, hmac, ESYS_TR_NONE, ESYS_TR_NONE, &private_area.value,
                        &public_area, object);
}

/// The recovery object: an HMAC key the TPM generates (so its sensitive part, and
/// with it its Name, cannot be chosen by anyone), usable with the recovery key.
static TSS2_RC create_recovery_object(pl_tpm *tpm, ESYS_TR hmac, const uint8_t *recovery_key,
                                      pl_tpm_binding *binding) {
  TPM2B_SENSITIVE_CREATE sensitive = {.size = 0, .sensitive = {.userAuth = {.size = 32}}};
  memcpy(sensitive.sensitive.userAuth.buffer, recovery_key, 32);
  TPM2B_PUBLIC template = {
      .publicArea = {.type = TPM2_ALG_KEYEDHASH,
                     .nameAlg = TPM2_ALG_SHA256,
                     .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
                                         TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH |
                                         TPMA_OBJECT_NODA | TPMA_OBJECT_SIGN_ENCRYPT,
                     .parameters = {.keyedHashDetail = {.scheme = {.scheme = TPM2_ALG_HMAC,
                                                                   .details = {.hmac = {.hashAlg = TPM2_ALG_SHA256}}}}}}};
  TPM2B_PUBLIC *public_area = NULL;
  TPM2B_PRIVATE *private_area = NULL;
  TSS2_RC rc = create_object(tpm, hmac, &sensitive, &template, &public_area, &private_area);
  memset(&sensitive, 0, sizeof(sensitive));
  if (rc == TSS2_RC_SUCCESS &&
      !(marshal_public(public_area, binding->recovery_public, &binding->recovery_public_size) &&
        marshal_private(private_area, binding->recovery_private, &binding->recovery_private_size)))
    rc = TSS2_MU_RC_INSUFFICIENT_BUFFER;
  tss2.Esys_Free(public_area);
  tss2.Esys_Free(private_area);
  return rc;
}

/// The digest of "PolicySecret(entity)" (and "PolicyCommandCode(NV_Write)" when
/// `for_write`), computed by the TPM in a trial session.
static TSS2_RC policy_digest(pl_tpm *tpm, ESYS_TR entity, ESYS_TR hmac, int for_write, TPM2B_DIGEST *digest) {
  ESYS_TR trial = ESYS_TR_NONE;
  TSS2_RC rc = trial_session(tpm, &trial);
  if (rc == TSS2_RC_SUCCESS) rc = policy_secret(tpm, entity, trial, hmac);
  if (rc == TSS2_RC_SUCCESS && for_write)
    rc = tss2.Esys_PolicyCommandCode(tpm->esys, trial, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CC_NV_Write);
  TPM2B_DIGEST *made = NULL;
  if (rc == TSS2_RC_SUCCESS)
    rc = tss2.Esys_PolicyGetDigest(tpm->esys, trial, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &made);
  if (rc == TSS2_RC_SUCCESS) *digest = *made;
  tss2.Esys_Free(made);
  flush(tpm, &trial);
  return rc;
}

/// Writes the counter {0, limit} through PolicySecret(recovery) + PolicyCommandCode.
static TSS2_RC reset_counter(pl_tpm *tpm, ESYS_TR index, ESYS_TR recovery, ESYS_TR hmac, uint32_t limit,
                             int *wrong_key) {
  ESYS_TR policy = ESYS_TR_NONE;
  TSS2_RC rc = salted_session(tpm, TPM2_SE_POLICY, 0, &policy);
  if (rc == TSS2_RC_SUCCESS) {
    rc = policy_secret(tpm, recovery, policy, hmac);
    if (rc != TSS2_RC_SUCCESS && is_wrong_authorisation(rc)) *wrong_key = 1;
  }
  if (rc == TSS2_RC_SUCCESS)
    rc = tss2.Esys_PolicyCommandCode(tpm->esys, policy, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_CC_NV_Write);
  if (rc == TSS2_RC_SUCCESS) rc = write_counter(tpm, index, policy, limit);
  flush(tpm, &policy);
  return rc;
}

static TSS2_RC define_index(pl_tpm *tpm, ESYS_TR hmac, uint32_t handle, const uint8_t *auth,
                            const TPM2B_DIGEST *write_policy, ESYS_TR *index) {
  TPM2B_AUTH index_auth = {.size = 32};
  memcpy(index_auth.buffer, auth, 32);
  TPM2B_NV_PUBLIC public_info = {
      .nvPublic = {.nvIndex = handle,
                   .nameAlg = TPM2_ALG_SHA256,
                   .attributes = (TPM2_NT_PIN_FAIL << TPMA_NV_TPM2_NT_SHIFT) | TPMA_NV_POLICYWRITE |
                                 TPMA_NV_AUTHREAD | TPMA_NV_OWNERREAD | TPMA_NV_NO_DA,
                   .authPolicy = *write_policy,
                   .dataSize = sizeof(TPMS_NV_PIN_COUNTER_PARAMETERS)}};
  TSS2_RC rc = tss2.Esys_NV_DefineSpace(tpm->esys, ESYS_TR_RH_OWNER, hmac, ESYS_TR_NONE, ESYS_TR_NONE, &index_auth,
                                        &public_info, index);
  memset(index_auth.buffer, 0, sizeof(index_auth.buffer));
  return rc;
}

static TSS2_RC seal_secret(pl_tpm *tpm, ESYS_TR hmac, const uint8_t *secret, const TPM2B_DIGEST *policy,
                           pl_tpm_binding *binding) {
  TPM2B_SENSITIVE_CREATE sensitive = {.size = 0, .sensitive = {.data = {.size = 32}}};
  memcpy(sensitive.sensitive.data.buffer, secret, 32);
  TPM2B_PUBLIC template = {
      .publicArea = {.type = TPM2_ALG_KEYEDHASH,
                     .nameAlg = TPM2_ALG_SHA256,
                     .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_NODA |
                                         TPMA_OBJECT_ADMINWITHPOLICY,
                     .authPolicy = *policy,
                     .parameters = {.keyedHashDetail = {.scheme = {.scheme = TPM2_ALG_NULL}}}}};
  TPM2B_PUBLIC *public_area = NULL;
  TPM2B_PRIVATE *private_area = NULL;
  TSS2_RC rc = create_object(tpm, hmac, &sensitive, &template, &public_area, &private_area);
  memset(&sensitive, 0, sizeof(sensitive));
  if (rc == TSS2_RC_SUCCESS && !(marshal_public(public_area, binding->sealed_public, &binding->sealed_public_size) &&
                                 marshal_private(private_area, binding->sealed_private, &binding->sealed_private_size)))
    rc = TSS2_MU_RC_INSUFFICIENT_BUFFER;
  tss2.Esys_Free(public_area);
  tss2.Esys_Free(private_area);
  return rc;
}

pl_tpm_status pl_tpm_enrol(pl_tpm *tpm, const uint8_t *auth, const uint8_t *recovery_key, const uint8_t *secret,
                           uint32_t limit, pl_tpm_binding *binding) {
  memset(binding, 0, sizeof(*binding));
  ESYS_TR hmac = ESYS_TR_NONE, recovery = ESYS_TR_NONE, index = ESYS_TR_NONE;
  pl_tpm_status status = done();
  TSS2_RC rc;
  const char *step = "StartAuthSession";
  uint32_t slots = 0;
  TPM2B_DIGEST write_policy = {.size = 0}, seal_policy = {.size = 0};
  int wrong_key = 0;

  if ((rc = salted_session(tpm, TPM2_SE_HMAC, both_ways, &hmac)) != TSS2_RC_SUCCESS) goto failed;
  step = "Create (recovery object)";
  if ((rc = create_recovery_object(tpm, hmac, recovery_key, binding)) != TSS2_RC_SUCCESS) goto failed;
  step = "Load (recovery object)";
  if ((rc = load_object(tpm, hmac, binding->recovery_public, binding->recovery_public_size, binding->recovery_private,
                        binding->recovery_private_size, &recovery)) != TSS2_RC_SUCCESS)
    goto failed;
  set_auth(tpm, recovery, recovery_key);
  step = "PolicySecret (trial, recovery)";
  if ((rc = policy_digest(tpm, recovery, hmac, 1, &write_policy)) != TSS2_RC_SUCCESS) goto failed;
  step = "GetCapability (handles)";
  if ((rc = defined_indexes(tpm, &slots)) != TSS2_RC_SUCCESS) goto failed;
  uint32_t slot = 0;
  while (slot < PL_TPM_INDEX_COUNT && (slots & (1u << slot))) slot++;
  if (slot == PL_TPM_INDEX_COUNT) {
    status = outcome(PL_TPM_NO_FREE_INDEX, 0, "NV_DefineSpace");
    goto cleanup;
  }
  binding->index = PL_TPM_INDEX_FIRST + slot;
  step = "NV_DefineSpace";
  if ((rc = define_index(tpm, hmac, binding->index, auth, &write_policy, &index)) != TSS2_RC_SUCCESS) goto failed;
  step = "NV_Write (counter)";
  if ((rc = reset_counter(tpm, index, recovery, hmac, limit, &wrong_key)) != TSS2_RC_SUCCESS) goto undefine;
  // The seal's policy names the index as written (TPMA_NV_WRITTEN is part of its Name).
  set_auth(tpm, index, auth);
  step = "PolicySecret (trial, index)";
  if ((rc = policy_digest(tpm, index, hmac, 0, &seal_policy)) != TSS2_RC_SUCCESS) goto undefine;
  step = "Create (sealed secret)";
  if ((rc = seal_secret(tpm, hmac, secret, &seal_policy, binding)) != TSS2_RC_SUCCESS) goto undefine;
  step = "TR_GetName";
  if (!copy_name(tpm, tpm->storage_key, binding->storage_key_name, &binding->storage_key_name_size) ||
      !copy_name(tpm, index, binding->index_name, &binding->index_name_size)) {
    rc = TSS2_ESYS_RC_GENERAL_FAILURE;
    goto undefine;
  }
  goto cleanup;

undefine:
  tss2.Esys_NV_UndefineSpace(tpm->esys, ESYS_TR_RH_OWNER, index, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE);
  index = ESYS_TR_NONE;
failed:
  status = failure(rc, step);
cleanup:
  forget_handle(tpm, &index);
  flush(tpm, &recovery);
  flush(tpm, &hmac);
  return status;
}

/// Loads an object of the enrolment: one that does not load under this storage key
/// (wrapped by another TPM, or damaged) means this is not the enrolled TPM.
static pl_tpm_status load_enrolled(pl_tpm *tpm, ESYS_TR hmac, const uint8_t *public_bytes, size_t public_size,
                                   const uint8_t *private_bytes, size_t private_size, const char *step,
                                   ESYS_TR *object) {
  TSS2_RC rc = load_object(tpm, hmac, public_bytes, public_size, private_bytes, private_size, object);
  if (rc == TSS2_RC_SUCCESS) return done();
  pl_tpm_status status = failure(rc, step);
  if (status.code == PL_TPM_FAILED) status.code = PL_TPM_NOT_ENROLLED_HERE;
  return status;
}

/// Opens the binding's index after checking the storage key's and the index's Names.
static pl_tpm_status open_index(pl_tpm *tpm, const pl_tpm_binding *binding, ESYS_TR *index) {
  if (!same_name(tpm, tpm->storage_key, binding->storage_key_name, binding->storage_key_name_size))
    return outcome(PL_TPM_NOT_ENROLLED_HERE, 0, "storage key Name");
  TSS2_RC rc =
      tss2.Esys_TR_FromTPMPublic(tpm->esys, binding->index, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, index);
  if (rc != TSS2_RC_SUCCESS) {
    pl_tpm_status status = failure(rc, "NV_ReadPublic");
    if (status.code == PL_TPM_FAILED) status.code = PL_TPM_NOT_ENROLLED_HERE;
    return status;
  }
  if (!same_name(tpm, *index, binding->index_name, binding->index_name_size)) {
    forget_handle(tpm, index);
    return outcome(PL_TPM_NOT_ENROLLED_HERE, 0, "index Name");
  }
  return done();
}

static pl_tpm_status read_counter(pl_tpm *tpm, ESYS_TR index, uint32_t *failures, uint32_t *limit) {
  TPM2B_MAX_NV_BUFFER *data = NULL;
  TSS2_RC rc = tss2.Esys_NV_Read(tpm->esys, ESYS_TR_RH_OWNER, index, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                                 PL_WIRE_PIN_COUNTER_SIZE, 0, &data);
  if (rc != TSS2_RC_SUCCESS) return failure(rc, "NV_Read (owner)");
  int read = pl_wire_read_pin_counter(data->buffer, data->size, failures, limit);
  tss2.Esys_Free(data);
  if (!read) return failure(TSS2_MU_RC_BAD_SIZE, "NV_Read (counter)");
  return done();
}

pl_tpm_status pl_tpm_check(pl_tpm *tpm, const pl_tpm_binding *binding, uint32_t *failures, uint32_t *limit) {
  ESYS_TR index = ESYS_TR_NONE;
  pl_tpm_status status = open_index(tpm, binding, &index);
  if (status.code == PL_TPM_OK) status = read_counter(tpm, index, failures, limit);
  forget_handle(tpm, &index);
  return status;
}

pl_tpm_status pl_tpm_unseal(pl_tpm *tpm, const pl_tpm_binding *binding, const uint8_t *auth, uint8_t *secret) {
  ESYS_TR index = ESYS_TR_NONE, hmac = ESYS_TR_NONE, policy = ESYS_TR_NONE, sealed = ESYS_TR_NONE;
  TPM2B_SENSITIVE_DATA *data = NULL;
  TSS2_RC rc;
  pl_tpm_status status = open_index(tpm, binding, &index);
  if (status.code != PL_TPM_OK) goto cleanup;
  if ((rc = salted_session(tpm, TPM2_SE_HMAC, 0, &hmac)) != TSS2_RC_SUCCESS ||
      (rc = salted_session(tpm, TPM2_SE_POLICY, TPMA_SESSION_ENCRYPT, &policy)) != TSS2_RC_SUCCESS) {
    status = failure(rc, "StartAuthSession");
    goto cleanup;
  }
  set_auth(tpm, index, auth);
  rc = policy_secret(tpm, index, policy, hmac);
  if (rc != TSS2_RC_SUCCESS) {
    if (is_wrong_authorisation(rc))
      status = outcome(PL_TPM_WRONG, rc, "PolicySecret");
    else if (bare_code(rc) == TPM2_RC_AUTH_UNAVAILABLE)
      status = outcome(PL_TPM_LOCKED_OUT, rc, "PolicySecret");
    else
      status = failure(rc, "PolicySecret");
    goto cleanup;
  }
  status = load_enrolled(tpm, hmac, binding->sealed_public, binding->sealed_public_size, binding->sealed_private,
                         binding->sealed_private_size, "Load (sealed secret)", &sealed);
  if (status.code != PL_TPM_OK) goto cleanup;
  rc = tss2.Esys_Unseal(tpm->esys, sealed, policy, ESYS_TR_NONE, ESYS_TR_NONE, &data);
  if (rc != TSS2_RC_SUCCESS) {
    status = failure(rc, "Unseal");
    goto cleanup;
  }
  if (data->size != 32) {
    status = outcome(PL_TPM_NOT_ENROLLED_HERE, 0, "Unseal (size)");
    goto cleanup;
  }
  memcpy(secret, data->buffer, 32);
cleanup:
  if (data) {
    memset(data->buffer, 0, sizeof(data->buffer));
    tss2.Esys_Free(data);
  }
  flush(tpm, &sealed);
  flush(tpm, &policy);
  flush(tpm, &hmac);
  forget_handle(tpm, &index);
  return status;
}

pl_tpm_status pl_tpm_recover(pl_tpm *tpm, const pl_tpm_binding *binding, const uint8_t *recovery_key,
                             uint32_t limit) {
  ESYS_TR index = ESYS_TR_NONE, hmac = ESYS_TR_NONE, recovery = ESYS_TR_NONE;
  TSS2_RC rc;
  int wrong_key = 0;
  pl_tpm_status status = open_index(tpm, binding, &index);
  if (status.code != PL_TPM_OK) goto cleanup;
  if ((rc = salted_session(tpm, TPM2_SE_HMAC, 0, &hmac)) != TSS2_RC_SUCCESS) {
    status = failure(rc, "StartAuthSession");
    goto cleanup;
  }
  status = load_enrolled(tpm, hmac, binding->recovery_public, binding->recovery_public_size,
                         binding->recovery_private, binding->recovery_private_size, "Load (recovery object)",
                         &recovery);
  if (status.code != PL_TPM_OK) goto cleanup;
  set_auth(tpm, recovery, recovery_key);
  rc = reset_counter(tpm, index, recovery, hmac, limit, &wrong_key);
  if (rc != TSS2_RC_SUCCESS) status = wrong_key ? outcome(PL_TPM_WRONG, rc, "PolicySecret") : failure(rc, "NV_Write");
cleanup:
  flush(tpm, &recovery);
  flush(tpm, &hmac);
  forget_handle(tpm, &index);
  return status;
}

pl_tpm_status pl_tpm_forget_others(pl_tpm *tpm, uint32_t keep) {
  uint32_t slots = 0;
  TSS2_RC rc = defined_indexes(tpm, &slots);
  if (rc != TSS2_RC_SUCCESS) return failure(rc, "GetCapability (handles)");
  for (uint32_t slot = 0; slot < PL_TPM_INDEX_COUNT; slot++) {
    uint32_t handle = PL_TPM_INDEX_FIRST + slot;
    if (!(slots & (1u << slot)) || handle == keep) continue;
    ESYS_TR index = ESYS_TR_NONE;
    rc = tss2.Esys_TR_FromTPMPublic(tpm->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &index);
    if (rc == TSS2_RC_SUCCESS)
      rc = tss2.Esys_NV_UndefineSpace(tpm->esys, ESYS_TR_RH_OWNER, index, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE);
    if (rc != TSS2_RC_SUCCESS) {
      forget_handle(tpm, &index);
      return failure(rc, "NV_UndefineSpace");
    }
  }
  return done();
}
