# A GTK 3 window that offers the URIs given after its app id as text/uri-list when dragged
# (GTKProgram.dragSource in the end-to-end tests runs it).
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk, GLib
GLib.set_prgname(sys.argv[1])
uris = sys.argv[2:]
window = Gtk.Window(title="drag source")
window.set_default_size(160, 160)
window.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [Gtk.TargetEntry.new("text/uri-list", 0, 0)], Gdk.DragAction.COPY)
window.connect("drag-data-get", lambda widget, context, selection, info, time: selection.set_uris(uris))
window.connect("drag-end", lambda widget, context: print("drag ended", flush=True))
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()

