"""The desktop around the window, as a person meets it: X11 windows (close, hidden or shown),
notifications (what the fake server in fake_notifyd.py received, and clicking one) and the tray
menu (read and clicked over D-Bus by tray_probe.py)."""
import json
import os
import subprocess

from .env import HERE, NOTIFY_LOG, PYTHON
from .wait import wait_for


def notifications():
    """Every notification sent so far in this run of the suite: the fake server's records
    ({"method", "app_name", "summary", "body", "actions", "id", …}), oldest first."""
    try:
        with open(NOTIFY_LOG, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def closed_notifications():
    """The ids of the notifications the app closed (CloseNotification), oldest first."""
    try:
        with open(NOTIFY_LOG + ".closed", encoding="utf-8") as f:
            return [json.loads(line)["id"] for line in f if line.strip()]
    except FileNotFoundError:
        return []


def click_notification(nid, action="default"):
    """Clicks a notification as a person would (the fake server's test hook)."""
    import dbus
    bus = dbus.SessionBus()
    server = bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
    server.Click(dbus.UInt32(nid), action, dbus_interface="dev.askfirst.TestNotifications")


def forge_action(nid, key, to=None):
    """Sends ActionInvoked(nid, key) as any other process of the person could: from a bus
    connection of its own (not the notification server's), as a broadcast, or straight to the
    unique name `to`."""
    import dbus
    import dbus.lowlevel
    bus = dbus.SessionBus(private=True)
    try:
        message = dbus.lowlevel.SignalMessage("/org/freedesktop/Notifications",
                                              "org.freedesktop.Notifications", "ActionInvoked")
        message.append(dbus.UInt32(nid), key, signature="us")
        if to:
            message.set_destination(to)
        bus.send_message(message)
        bus.flush()
    finally:
        bus.close()


def tray(*args):
    """The tray menu ({"title", "labels": [...]}) or, with ("click", label), clicks an item;
    {"error": …} if the probe could not reach it."""
    out = subprocess.run([PYTHON, os.path.join(HERE, "tray_probe.py"), *args], capture_output=True,
                         text=True, timeout=20)
    return json.loads(out.stdout) if out.stdout.strip() else {"error": out.stderr}


def x_connections(pid):
    """How many connections the process `pid` holds to the X server, as the server counts its
    clients (the X-Resource extension's QueryClientIds with the local client PID mask)."""
    from Xlib import display
    from Xlib.ext import res
    d = display.Display()
    try:
        ids = d.res_query_client_ids([{"client": 0, "mask": res.LocalClientPIDMask}])
        return sum(1 for i in ids.ids if i.spec.mask == res.LocalClientPIDMask and list(i.value) == [pid])
    finally:
        d.close()


def _pid_of(d, window):
    """The process that owns `window` (its _NET_WM_PID, which GTK sets), or None."""
    prop = window.get_full_property(d.intern_atom("_NET_WM_PID"), 0)
    return prop.value[0] if prop is not None and len(prop.value) else None


def close_window(title="Ask First", pid=None):
    """Asks the window to close as a window manager's close button does: a WM_DELETE_WINDOW
    message (ICCCM §4.2.8.1) to the top-level window with that title (and, given `pid`, of that
    process only: another app's window of the same title on this display is left alone)."""
    from Xlib import X, display, protocol
    d = display.Display()
    try:
        delete = d.intern_atom("WM_DELETE_WINDOW")
        protocols = d.intern_atom("WM_PROTOCOLS")

        # Mapped only: GTK's unmapped client-leader window carries the app's name too.
        window = _viewable_window(d, title, pid,
                                  lambda w: delete in (w.get_wm_protocols() or []))
        assert window, f"no window titled {title!r}"
        event = protocol.event.ClientMessage(window=window, client_type=protocols,
                                             data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        window.send_event(event, event_mask=X.NoEventMask)
        d.flush()
    finally:
        d.close()


def hide_by_closing(title="Ask First"):
    """Closes the window (it should hide) and waits until it is hidden; returns how many
    closes it took. A close sent in the first second or so after the window appeared is
    sometimes lost before it reaches the app (its close handler never runs; with or without
    WebDriver, and most often on a loaded machine), so the close is sent again, as a person
    would click again. When the app handles a close, the window is gone within a fraction
    of a second."""
    for attempt in range(1, 11):
        close_window(title)
        try:
            wait_for("the window to hide", lambda: not window_viewable(title), timeout=2)
            return attempt
        except AssertionError:
            print(f"  (the window did not hide after close {attempt}; closing again)", flush=True)
            continue
    raise AssertionError(f"the window did not hide: {x_windows(title)}")


def x_windows(title="Ask First"):
    """(id, map state, has WM_DELETE_WINDOW, owning pid) of every window with that title, for
    messages."""
    from Xlib import display
    d = display.Display()
    try:
        delete = d.intern_atom("WM_DELETE_WINDOW")
        found = []

        def walk(window):
            try:
                if window.get_wm_name() == title:
                    found.append((hex(window.id), window.get_attributes().map_state,
                                  delete in (window.get_wm_protocols() or []), _pid_of(d, window)))
            except Exception:
                pass
            for child in window.query_tree().children:
                walk(child)
        walk(d.screen().root)
        return found
    finally:
        d.close()


def _viewable_window(d, title, pid, also=None):
    """The first mapped, viewable window with that title (of process `pid`, when given, and
    for which `also(window)` holds, when given) on display `d`, or None."""
    from Xlib import X

    def walk(window):
        try:
            if (window.get_wm_name() == title and window.get_attributes().map_state == X.IsViewable
                    and (pid is None or _pid_of(d, window) == pid)
                    and (also is None or also(window))):
                return window
        except Exception:
            pass
        for child in window.query_tree().children:
            found = walk(child)
            if found is not None:
                return found
        return None
    return walk(d.screen().root)


def window_viewable(title="Ask First", pid=None):
    """Whether a top-level window with that title (of process `pid`, when given) is mapped and
    viewable."""
    from Xlib import display
    d = display.Display()
    try:
        return _viewable_window(d, title, pid) is not None
    finally:
        d.close()


def window_png(path, title="Ask First", pid=None):
    """Saves what the X server shows of the window (with that title, of process `pid`) as a PNG
    at `path`: the pixels on screen, as a person sees them. Returns False when no such window
    is viewable or the X server would not give its image (a window partly off the screen)."""
    import struct
    import zlib
    from Xlib import X, display
    d = display.Display()
    try:
        window = _viewable_window(d, title, pid)
        if window is None:
            return False
        try:
            box = window.get_geometry()
            image = window.get_image(0, 0, box.width, box.height, X.ZPixmap, 0xFFFFFFFF)
        except Exception:  # BadMatch: not all of it is on the screen
            return False
        pixels = image.data  # 32 bits a pixel, BGRX (Xvfb's 24-bit TrueColor)
        rows = bytearray()
        stride = box.width * 4
        for y in range(box.height):
            rows.append(0)  # PNG filter: none
            row = pixels[y * stride:(y + 1) * stride]
            rgb = bytearray(box.width * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = row[2::4], row[1::4], row[0::4]
            rows += rgb

        def chunk(kind, data):
            return (struct.pack(">I", len(data)) + kind + data
                    + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n"
                    + chunk(b"IHDR", struct.pack(">IIBBBBB", box.width, box.height, 8, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))
        return True
    finally:
        d.close()


def png_pixels(path):
    """(width, height, rows) of an 8-bit RGBA or RGB PNG without interlacing, as the tray's icon
    files are: rows of (r, g, b, a) tuples. Enough of the PNG specification (filters 0–4) for
    the tests to look at an icon a panel shows, without an imaging library."""
    import struct
    import zlib
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append([tuple(line[x * channels:(x + 1) * channels]) + ((255,) if channels == 3 else ())
                     for x in range(width)])
        previous = line
    return width, height, rows


def tray_icon_pixels(menu):
    """The pixels of the tray icon's image as the panel reads it (the probe's `icon` path), or
    None when there is no such file (yet)."""
    path = menu.get("icon", "")
    try:
        return png_pixels(path)
    except (OSError, AssertionError):
        return None
