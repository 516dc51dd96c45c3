// libdrm's modesetting API (Debian libdrm-dev): drmModeGetResources, drmModeSetCrtc,
// drmModePageFlip, dumb buffers, drmHandleEvent.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
