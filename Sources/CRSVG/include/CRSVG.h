#ifndef PHOTOZOOM_CRSVG_H
#define PHOTOZOOM_CRSVG_H
#include <stddef.h>
#include <stdint.h>
#include "CDynamicLibrary.h"

/* librsvg is opened on first use (dlopen), not linked: it brings GLib, GIO, Pango and some forty
   more libraries, about 10 MiB of a launch, though only SVG files need it. Its headers need GLib's
   include paths, which a C target here can't take from pkg-config; these are the few functions of
   its stable 2.x API (2.52 and later) that the SVG decoder calls, declared as rsvg.h and glib's
   gerror.h declare them. */
#pragma clang assume_nonnull begin
typedef struct _RsvgHandle RsvgHandle;
struct _cairo;

typedef struct {
    uint32_t domain;
    int code;
    char *_Nullable message;
} photozoom_gerror;

typedef struct {
    double x, y, width, height;
} photozoom_rsvg_rectangle;

typedef struct {
    double length;
    int unit; /* RsvgUnit */
} photozoom_rsvg_length;

RsvgHandle *_Nullable rsvg_handle_new_from_data(const uint8_t *data, size_t length, photozoom_gerror *_Nullable *_Nullable error);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *width, double *height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, int *has_width, photozoom_rsvg_length *width, int *has_height,
                                          photozoom_rsvg_length *height, int *has_viewbox, photozoom_rsvg_rectangle *viewbox);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
int rsvg_handle_render_document(RsvgHandle *handle, struct _cairo *cr, const photozoom_rsvg_rectangle *viewport,
                                photozoom_gerror *_Nullable *_Nullable error);
/* GLib's, found through librsvg's own dependencies. */
void g_object_unref(void *object);
void g_error_free(photozoom_gerror *error);

#define PHOTOZOOM_RSVG_FUNCTIONS(X) \
    X(rsvg_handle_new_from_data) X(rsvg_handle_get_intrinsic_size_in_pixels) X(rsvg_handle_get_intrinsic_dimensions) \
    X(rsvg_handle_set_dpi) \
    X(rsvg_handle_render_document) X(g_object_unref) X(g_error_free)

/* The table, loaded once (from any thread); NULL when the library or a function is missing, with
   the loader's words in `reason`. */
PHOTOZOOM_DECLARE_TABLE(photozoom_rsvg, PHOTOZOOM_RSVG_FUNCTIONS)
#pragma clang assume_nonnull end
#endif
