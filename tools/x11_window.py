#!/usr/bin/env python3
"""Talk to a game window on an X server (Xvfb in CI) the way a desktop would.

    x11_window.py wait TITLE [SECONDS]   wait until a window titled TITLE is shown
    x11_window.py shot PATH              save the whole screen as a PNG
    x11_window.py close TITLE            ask the window to close, as its close
                                         button does (WM_DELETE_WINDOW)

Only Python's standard library and libX11 (which the game itself loads).
"""

import ctypes
import ctypes.util
import os
import struct
import sys
import time
import zlib

x11_path = ctypes.util.find_library("X11") or "libX11.so.6"
x11 = ctypes.cdll.LoadLibrary(x11_path)

Window = ctypes.c_ulong
Atom = ctypes.c_ulong

x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = Window
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XQueryTree.argtypes = [
    ctypes.c_void_p,
    Window,
    ctypes.POINTER(Window),
    ctypes.POINTER(Window),
    ctypes.POINTER(ctypes.POINTER(Window)),
    ctypes.POINTER(ctypes.c_uint),
]
x11.XFetchName.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(ctypes.c_char_p)]
x11.XInternAtom.restype = Atom
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XGetWindowProperty.argtypes = [
    ctypes.c_void_p, Window, Atom, ctypes.c_long, ctypes.c_long, ctypes.c_int, Atom,
    ctypes.POINTER(Atom), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
    ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p),
]
x11.XFree.argtypes = [ctypes.c_void_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XSendEvent.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]


class XWindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int), ("y", ctypes.c_int),
        ("width", ctypes.c_int), ("height", ctypes.c_int),
        ("border_width", ctypes.c_int), ("depth", ctypes.c_int),
        ("visual", ctypes.c_void_p), ("root", Window),
        ("class_", ctypes.c_int), ("bit_gravity", ctypes.c_int),
        ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int),
        ("backing_planes", ctypes.c_ulong), ("backing_pixel", ctypes.c_ulong),
        ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong),
        ("map_installed", ctypes.c_int), ("map_state", ctypes.c_int),
        ("all_event_masks", ctypes.c_long), ("your_event_mask", ctypes.c_long),
        ("do_not_propagate_mask", ctypes.c_long), ("override_redirect", ctypes.c_int),
        ("screen", ctypes.c_void_p),
    ]


x11.XGetWindowAttributes.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(XWindowAttributes)]


class XImage(ctypes.Structure):
    _fields_ = [
        ("width", ctypes.c_int), ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_ubyte)),
        ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
        ("red_mask", ctypes.c_ulong), ("green_mask", ctypes.c_ulong),
        ("blue_mask", ctypes.c_ulong),
    ]


x11.XGetImage.restype = ctypes.POINTER(XImage)
x11.XGetImage.argtypes = [
    ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
    ctypes.c_ulong, ctypes.c_int,
]


class ClientMessageData(ctypes.Union):
    _fields_ = [("l", ctypes.c_long * 5)]


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p), ("window", Window), ("message_type", Atom),
        ("format", ctypes.c_int), ("data", ClientMessageData),
    ]


class XEvent(ctypes.Union):
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


def display():
    d = x11.XOpenDisplay(None)
    if not d:
        sys.exit(f"x11_window: cannot open display {os.environ.get('DISPLAY')!r}")
    return d


def children(d, w):
    root, parent = Window(), Window()
    kids = ctypes.POINTER(Window)()
    n = ctypes.c_uint()
    if not x11.XQueryTree(d, w, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(kids), ctypes.byref(n)):
        return []
    out = [kids[i] for i in range(n.value)]
    if kids:
        x11.XFree(kids)
    return out


def title(d, w):
    name = ctypes.c_char_p()
    if x11.XFetchName(d, w, ctypes.byref(name)) and name.value is not None:
        return name.value.decode("utf-8", "replace")
    # _NET_WM_NAME (UTF-8), which some toolkits set instead.
    prop = x11.XInternAtom(d, b"_NET_WM_NAME", 0)
    utf8 = x11.XInternAtom(d, b"UTF8_STRING", 0)
    actual, fmt = Atom(), ctypes.c_int()
    count, after = ctypes.c_ulong(), ctypes.c_ulong()
    data = ctypes.c_void_p()
    ok = x11.XGetWindowProperty(d, w, prop, 0, 1024, 0, utf8, ctypes.byref(actual), ctypes.byref(fmt),
                                ctypes.byref(count), ctypes.byref(after), ctypes.byref(data))
    if ok == 0 and data.value:
        text = ctypes.string_at(data.value, count.value).decode("utf-8", "replace")
        x11.XFree(data)
        return text
    return None


def find(d, want):
    stack = [x11.XDefaultRootWindow(d)]
    while stack:
        w = stack.pop()
        if title(d, w) == want:
            attrs = XWindowAttributes()
            x11.XGetWindowAttributes(d, w, ctypes.byref(attrs))
            if attrs.map_state == 2:  # IsViewable
                return w
        stack.extend(children(d, w))
    return None


def cmd_wait(want, seconds=300.0):
    d = display()
    deadline = time.time() + float(seconds)
    while time.time() < deadline:
        if find(d, want):
            print(f"x11_window: window {want!r} is shown")
            return 0
        time.sleep(0.5)
    sys.exit(f"x11_window: no window {want!r} after {seconds} s")


def cmd_close(want):
    d = display()
    w = find(d, want)
    if not w:
        sys.exit(f"x11_window: no window {want!r} to close")
    ev = XEvent()
    ev.xclient.type = 33  # ClientMessage
    ev.xclient.window = w
    ev.xclient.message_type = x11.XInternAtom(d, b"WM_PROTOCOLS", 0)
    ev.xclient.format = 32
    ev.xclient.data.l[0] = x11.XInternAtom(d, b"WM_DELETE_WINDOW", 0)
    ev.xclient.data.l[1] = 0  # CurrentTime
    x11.XSendEvent(d, w, 0, 0, ctypes.byref(ev))
    x11.XFlush(d)
    print(f"x11_window: asked window {want!r} to close")
    return 0


def cmd_shot(path):
    d = display()
    root = x11.XDefaultRootWindow(d)
    attrs = XWindowAttributes()
    x11.XGetWindowAttributes(d, root, ctypes.byref(attrs))
    w, h = attrs.width, attrs.height
    img = x11.XGetImage(d, root, 0, 0, w, h, 0xFFFFFFFF, 2)  # ZPixmap
    if not img:
        sys.exit("x11_window: XGetImage failed")
    im = img.contents
    if im.bits_per_pixel != 32:
        sys.exit(f"x11_window: {im.bits_per_pixel} bits per pixel is not handled")
    raw = ctypes.string_at(im.data, im.bytes_per_line * h)
    rows = []
    for y in range(h):
        line = raw[y * im.bytes_per_line: y * im.bytes_per_line + 4 * w]
        rgb = bytearray(3 * w)
        rgb[0::3] = line[2::4]
        rgb[1::3] = line[1::4]
        rgb[2::3] = line[0::4]
        rows.append(b"\x00" + bytes(rgb))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 6))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
    print(f"x11_window: saved the screen ({w}x{h}) to {path}")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "wait":
        return cmd_wait(*argv[1:3])
    if len(argv) == 2 and argv[0] == "close":
        return cmd_close(argv[1])
    if len(argv) == 2 and argv[0] == "shot":
        return cmd_shot(argv[1])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
