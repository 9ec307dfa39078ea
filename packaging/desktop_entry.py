#!/usr/bin/python3
"""Writes the menu entry's template for the Debian package (Tauri's `desktopTemplate`, a
Handlebars template; make package passes it): Tauri's own template, with the window's tagline
(`app-tagline` of locales/<tag>/window.ftl) as the entry's Comment in each language, so the
menu describes Ask First in the desktop's language (freedesktop Desktop Entry Specification,
"Localized values for keys": `Comment[pt_BR]=…`). English stays the package's shortDescription.

    packaging/desktop_entry.py OUT_FILE
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The catalogues' tags (BCP 47) and the locale names a desktop uses for them (LANG's form).
LOCALES = {"pt-BR": "pt_BR", "zh-CN": "zh_CN"}


def tagline(tag):
    """The `app-tagline` sentence of that language's window catalogue."""
    path = os.path.join(ROOT, "locales", tag, "window.ftl")
    with open(path, encoding="utf-8") as f:
        found = re.search(r"^app-tagline = (.+)$", f.read(), re.MULTILINE)
    if not found:
        sys.exit(f"{path} has no one-line app-tagline")
    text = found.group(1).strip()
    # Nothing Handlebars or a desktop file would read as its own: a placeholder, a line break.
    if "{" in text or "}" in text or "\\" in text:
        sys.exit(f"{path}: app-tagline {text!r} holds a brace or a backslash")
    return text


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    comments = "".join(f"Comment[{name}]={tagline(tag)}\n" for tag, name in LOCALES.items())
    template = (
        "[Desktop Entry]\n"
        "Categories={{categories}}\n"
        "{{#if comment}}\n"
        "Comment={{comment}}\n"
        "{{/if}}\n"
        f"{comments}"
        "Exec={{exec}}\n"
        "StartupWMClass={{exec}}\n"
        "Icon={{icon}}\n"
        "Name={{name}}\n"
        "Terminal=false\n"
        "Type=Application\n"
        "{{#if mime_type}}\n"
        "MimeType={{mime_type}}\n"
        "{{/if}}\n"
    )
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write(template)


if __name__ == "__main__":
    main()
