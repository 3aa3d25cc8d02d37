#define _GNU_SOURCE
#include "wayland-client-support.h"
#include "fractional-scale-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int wayland_shm_file(size_t size) {
    int fd = memfd_create("photozoom-frame", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    int result;
    do { result = ftruncate(fd, (off_t)size); } while (result < 0 && errno == EINTR);
    if (result < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
    return fd;
}

static const struct wl_interface *const bound[] = {
    &wl_compositor_interface, &wl_subcompositor_interface, &wl_shm_interface, &wl_seat_interface,
    &wl_output_interface, &wl_data_device_manager_interface, &xdg_wm_base_interface,
    &wp_presentation_interface, &wp_viewporter_interface, &wp_fractional_scale_manager_v1_interface, &zxdg_decoration_manager_v1_interface,
    &zxdg_output_manager_v1_interface, &zwp_pointer_gestures_v1_interface,
    &zwlr_virtual_pointer_manager_v1_interface, &zwp_virtual_keyboard_manager_v1_interface,
};

const struct wl_interface *wayland_bound_interface(const char *name) {
    for (size_t i = 0; i < sizeof bound / sizeof bound[0]; i++) {
        if (strcmp(bound[i]->name, name) == 0) return bound[i];
    }
    return NULL;
}
