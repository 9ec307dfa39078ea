#!/usr/bin/python3
"""Reads the tray menu of the newest StatusNotifierItem on the session bus and prints its
labels as JSON: {"title": ..., "label": ..., "icon": ..., "labels": [...]} (`label`: the text
the panel shows beside the icon, libayatana's XAyatanaLabel; `icon`: the path of the icon's
image, IconName in IconThemePath); with `click LABEL`, first clicks that item. Uses python3-dbus (run with /usr/bin/python3).

The item is found through org.kde.StatusNotifierWatcher; its menu through
com.canonical.dbusmenu.GetLayout (the protocol libayatana-appindicator speaks).
"""
import json
import os
import sys
import xml.etree.ElementTree as ET

import dbus

bus = dbus.SessionBus()


def item_paths(name, path="/"):
    node = ET.fromstring(bus.get_object(name, path).Introspect(
        dbus_interface="org.freedesktop.DBus.Introspectable"))
    if any(i.get("name") == "org.kde.StatusNotifierItem" for i in node.findall("interface")):
        yield path
    for child in node.findall("node"):
        sub = (path.rstrip("/") + "/" + child.get("name"))
        yield from item_paths(name, sub)


def labels(layout):
    _id, props, children = layout
    out = []
    if "label" in props and props.get("visible", True):
        out.append(str(props["label"]))
    for child in children:
        out.extend(labels(child))
    return out


def main():
    watcher = bus.get_object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher")
    items = watcher.Get("org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems",
                        dbus_interface="org.freedesktop.DBus.Properties")
    names = [str(i).split("/")[0] for i in items]
    alive = [n for n in names if bus.name_has_owner(n)]
    if not alive:
        print(json.dumps({"error": "no tray item registered", "items": [str(i) for i in items]}))
        return 1
    name = alive[-1]
    path = next(item_paths(name))
    item = bus.get_object(name, path)
    props = item.GetAll("org.kde.StatusNotifierItem", dbus_interface="org.freedesktop.DBus.Properties")
    menu = bus.get_object(name, str(props["Menu"]))
    _rev, layout = menu.GetLayout(0, -1, ["label", "visible"], dbus_interface="com.canonical.dbusmenu")
    if len(sys.argv) > 2 and sys.argv[1] == "click":
        wanted = sys.argv[2]
        def find(node):
            item_id, item_props, children = node
            if str(item_props.get("label", "")) == wanted:
                return item_id
            for child in children:
                found = find(child)
                if found is not None:
                    return found
            return None
        item_id = find(layout)
        if item_id is None:
            print(json.dumps({"error": f"no menu item {wanted!r}", "labels": labels(layout)}))
            return 1
        menu.Event(item_id, "clicked", dbus.String("", variant_level=1), dbus.UInt32(0),
                   dbus_interface="com.canonical.dbusmenu")
    icon = str(props.get("IconName", ""))
    if icon and not icon.startswith("/"):
        icon = os.path.join(str(props.get("IconThemePath", "")), icon + ".png")
    print(json.dumps({"title": str(props.get("Title", "")), "label": str(props.get("XAyatanaLabel", "")),
                      "icon": icon, "labels": labels(layout)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
