#ifndef WAYLAND_CLIENT_SUPPORT_H
#define WAYLAND_CLIENT_SUPPORT_H
#include <stddef.h>
#include <wayland-client.h>
#include <wayland-cursor.h>

/// A new anonymous file of `size` bytes for a wl_shm pool (memfd, close-on-exec, sealed against
/// shrinking); -1 with errno set when it can't be made.
int wayland_shm_file(size_t size);

/// The interface of a global the viewer binds, by the name the registry announces it with (NULL for
/// one it does not use). From C, since Swift can't take the address of a C constant.
const struct wl_interface *wayland_bound_interface(const char *name);

#endif
