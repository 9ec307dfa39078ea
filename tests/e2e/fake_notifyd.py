#!/usr/bin/python3
"""A freedesktop notification server for tests: claims org.freedesktop.Notifications on the
session bus and appends one JSON line per Notify call to the file given as argv[1] (with its
expire timeout and the hints `resident` and `urgency`), and one line per CloseNotification call
to that file + ".closed". Its capabilities are those of a desktop's own server that keeps
notifications (`persistence`, as GNOME Shell's and Plasma's), without body markup. A test can click a notification:
the method Click(id, action) on the interface dev.askfirst.TestNotifications (same object)
emits ActionInvoked(id, action) as a server does when the person clicks it. Each record names
the bus connection that sent the notification (`sender`, its unique name), so a test can also
send a forged ActionInvoked straight to it.

Spec: Desktop Notifications Specification 1.2 (org.freedesktop.Notifications).
Uses Debian's python3-dbus and python3-gi (run with /usr/bin/python3).
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

IFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def _plain(value):
    """A D-Bus hint value as JSON: booleans as booleans, bytes and integers as numbers."""
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64, int)):
        return int(value)
    return str(value)


class Server(dbus.service.Object):
    def __init__(self, bus, log_path):
        self.name = dbus.service.BusName(IFACE, bus, do_not_queue=True)
        super().__init__(bus, PATH)
        self.log_path = log_path
        self.next_id = 1

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u",
                         sender_keyword="sender")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, timeout,
               sender=None):
        nid = self.next_id
        self.next_id += 1
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps({
                "id": nid, "sender": str(sender), "app_name": str(app_name), "summary": str(summary),
                "body": str(body), "actions": [str(a) for a in actions],
                "timeout": int(timeout),
                "hints": {str(k): _plain(v) for k, v in hints.items()
                          if str(k) in ("resident", "urgency", "transient")},
            }) + "\n")
        return nid

    @dbus.service.method(IFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body", "persistence"]

    @dbus.service.method(IFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("askfirst-test-notifyd", "askfirst", "1.0", "1.2")

    @dbus.service.method(IFACE, in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        with open(self.log_path + ".closed", "a", encoding="utf-8") as log:
            log.write(json.dumps({"id": int(nid)}) + "\n")
        self.NotificationClosed(nid, 3)

    @dbus.service.signal(IFACE, signature="us")
    def ActionInvoked(self, nid, action):
        pass

    @dbus.service.method("dev.askfirst.TestNotifications", in_signature="us", out_signature="")
    def Click(self, nid, action):
        self.ActionInvoked(nid, action)

    @dbus.service.signal(IFACE, signature="uu")
    def NotificationClosed(self, nid, reason):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    Server(dbus.SessionBus(), sys.argv[1])
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
