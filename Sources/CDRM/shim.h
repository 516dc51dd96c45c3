// libdrm's modesetting API (Debian libdrm-dev): drmModeGetResources, drmModeSetCrtc,
// drmModePageFlip, dumb buffers, drmHandleEvent.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <string.h>

// A one-property atomic commit (a plane's FB_ID: a page flip) straight through
// DRM_IOCTL_MODE_ATOMIC, from arrays on the stack. drmModeAtomicCommit would copy and
// sort the request into heap buffers on every flip; the per-frame path allocates
// nothing. drmIoctl retries EINTR and EAGAIN; -1 with errno on failure.
static inline int pl_drm_atomic_flip(int fd, uint32_t object, uint32_t property, uint64_t value, uint32_t flags,
                                     void *user_data) {
  uint32_t objects[1] = {object};
  uint32_t counts[1] = {1};
  uint32_t properties[1] = {property};
  uint64_t values[1] = {value};
  struct drm_mode_atomic request;
  memset(&request, 0, sizeof request);
  request.flags = flags;
  request.count_objs = 1;
  request.objs_ptr = (uint64_t)(uintptr_t)objects;
  request.count_props_ptr = (uint64_t)(uintptr_t)counts;
  request.props_ptr = (uint64_t)(uintptr_t)properties;
  request.prop_values_ptr = (uint64_t)(uintptr_t)values;
  request.user_data = (uint64_t)(uintptr_t)user_data;
  return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &request);
}

// Switches a CRTC off or on for idle blanking (DPMS through atomic): off is the CRTC's
// ACTIVE = 0 alone, keeping its mode blob and the plane's framebuffer, so the driver
// keeps the configuration; on is ACTIVE = 1 with the mode blob and the plane's
// FB_ID, the buffer to show. Both need DRM_MODE_ATOMIC_ALLOW_MODESET in `flags`.
// Straight through DRM_IOCTL_MODE_ATOMIC from arrays on the stack, like
// pl_drm_atomic_flip: the waking touch's path allocates nothing. -1 with errno on failure.
static inline int pl_drm_atomic_set_active(int fd, uint32_t crtc, uint32_t active_property, int active,
                                           uint32_t mode_property, uint32_t mode_blob, uint32_t plane,
                                           uint32_t framebuffer_property, uint32_t framebuffer, uint32_t flags) {
  uint32_t objects[2] = {crtc, plane};
  uint32_t counts[2] = {active ? 2 : 1, 1};
  uint32_t properties[3] = {active_property, mode_property, framebuffer_property};
  uint64_t values[3] = {active ? 1 : 0, mode_blob, framebuffer};
  struct drm_mode_atomic request;
  memset(&request, 0, sizeof request);
  request.flags = flags;
  request.count_objs = active ? 2 : 1;
  request.objs_ptr = (uint64_t)(uintptr_t)objects;
  request.count_props_ptr = (uint64_t)(uintptr_t)counts;
  request.props_ptr = (uint64_t)(uintptr_t)properties;
  request.prop_values_ptr = (uint64_t)(uintptr_t)values;
  return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &request);
}
