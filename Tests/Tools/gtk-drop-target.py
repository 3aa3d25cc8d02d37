# A GTK 3 window that takes drops as a file manager or an editor does: on a drop it asks for the
# text/uri-list, then the image/png, writes each into the folder given after its app id
# (dropped.uris, dropped.png) and says "dropped" (GTKProgram.dropTarget in the end-to-end tests runs it).
import os
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk, GLib
GLib.set_prgname(sys.argv[1])
folder = sys.argv[2]
wanted = ["text/uri-list", "image/png"]
window = Gtk.Window(title="drop target")
window.set_default_size(300, 300)
window.drag_dest_set(Gtk.DestDefaults.MOTION | Gtk.DestDefaults.HIGHLIGHT,
                     [Gtk.TargetEntry.new(t, 0, i) for i, t in enumerate(wanted)], Gdk.DragAction.COPY)
asked = []

def drop(widget, context, x, y, time):
    asked[:] = list(wanted)
    widget.drag_get_data(context, Gdk.Atom.intern(asked[0], False), time)
    return True

def received(widget, context, x, y, selection, info, time):
    kind = asked.pop(0)
    name = "dropped.uris" if kind == "text/uri-list" else "dropped.png"
    with open(os.path.join(folder, name), "wb") as out:
        out.write(selection.get_data() or b"")
    print("received", kind, len(selection.get_data() or b""), flush=True)
    if asked:
        widget.drag_get_data(context, Gdk.Atom.intern(asked[0], False), time)
    else:
        Gtk.drag_finish(context, True, False, time)
        print("dropped", flush=True)

window.connect("drag-drop", drop)
window.connect("drag-data-received", received)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
