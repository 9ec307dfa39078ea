#!/usr/bin/python3
"""Draws what a desktop would show of Ask First outside its window, for the tests' screenshots:
the tray as a panel shows it (the icon's image file and the label beside it, as the tray probe
read them from the StatusNotifierItem) and the notifications still open (as the fake server
received them, with their expire timeout and resident hint). The test display has no panel
and no notification bubbles of its own, so this is the picture of the real data a person's
desktop would draw.

Usage: desktop_view.py OUT.png JSON, where JSON is {"icon": path, "label": text,
"notifications": [{"summary", "body", "timeout", "hints"}, ...]}. Uses python3-gi (GTK 3).
"""
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GdkPixbuf, Gtk  # noqa: E402

CSS = b"""
.panel { background: #2b2b2b; color: #f0f0f0; padding: 6px 10px; }
.desk { background: #5d6d7e; }
.bubble { background: #fdfdfd; color: #1a1a1a; border-radius: 8px; padding: 10px 14px; }
.summary { font-weight: bold; }
.meta { color: #5a5a5a; font-size: 85%; }
"""


def main():
    out, spec = sys.argv[1], json.loads(sys.argv[2])
    provider = Gtk.CssProvider()
    provider.load_from_data(CSS)
    window = Gtk.OffscreenWindow()
    Gtk.StyleContext.add_provider_for_screen(window.get_screen(), provider,
                                             Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
    desk = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=10)
    desk.get_style_context().add_class("desk")
    desk.set_size_request(560, -1)
    panel = Gtk.Box(spacing=8)
    panel.get_style_context().add_class("panel")
    panel.pack_start(Gtk.Label(label="Panel (tray)"), False, False, 0)
    tray = Gtk.Box(spacing=6)
    if spec.get("icon"):
        pixbuf = GdkPixbuf.Pixbuf.new_from_file_at_size(spec["icon"], 24, 24)
        tray.pack_start(Gtk.Image.new_from_pixbuf(pixbuf), False, False, 0)
    tray.pack_start(Gtk.Label(label=spec.get("label", "")), False, False, 0)
    panel.pack_end(tray, False, False, 0)
    desk.pack_start(panel, False, False, 0)
    for note in spec.get("notifications", []):
        bubble = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
        bubble.get_style_context().add_class("bubble")
        for text, style in ((note["summary"], "summary"), (note["body"], None)):
            label = Gtk.Label(label=text, xalign=0)
            label.set_line_wrap(True)
            if style:
                label.get_style_context().add_class(style)
            bubble.pack_start(label, False, False, 0)
        hints = note.get("hints", {})
        meta = Gtk.Label(xalign=0, label="expire_timeout {} ({}), resident {}, urgency {}".format(
            note.get("timeout"), "never" if note.get("timeout") == 0 else "server's default",
            hints.get("resident", False), hints.get("urgency", "-")))
        meta.get_style_context().add_class("meta")
        bubble.pack_start(meta, False, False, 0)
        holder = Gtk.Box()
        holder.set_margin_start(200)
        holder.set_margin_end(12)
        holder.pack_start(bubble, True, True, 0)
        desk.pack_start(holder, False, False, 0)
    desk.pack_start(Gtk.Box(), False, False, 6)
    window.add(desk)
    window.show_all()
    while Gtk.events_pending():
        Gtk.main_iteration()
    window.get_pixbuf().savev(out, "png", [], [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
