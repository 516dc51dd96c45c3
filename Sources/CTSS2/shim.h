// tpm2-tss (Debian libtss2-dev): ESAPI with its sessions, the TCTI loader and response-code
// text (the saved objects' wire form is CTPMShim's own, see TPMWireFormat.h).
#include <tss2/tss2_esys.h>
#include <tss2/tss2_sys.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_rc.h>
