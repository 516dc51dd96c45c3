// tpm2-tss (Debian libtss2-dev): ESAPI with its sessions, the TCTI loader, marshalling
// of saved objects, and response-code text.
#include <tss2/tss2_esys.h>
#include <tss2/tss2_sys.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>
