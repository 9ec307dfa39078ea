#!/usr/bin/env bash
# Every icon size from the one source, icons/askfirst.svg (a speech bubble asking for your OK,
# on the app's blue), with the Tauri CLI the project already installs (ui/node_modules; it
# renders SVG itself). The PNGs are committed, so a build never needs this; run it after
# changing the SVG: icons/generate.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tauri="$here/../ui/node_modules/.bin/tauri"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$tauri" icon "$here/askfirst.svg" -o "$out" -p 16 -p 24 -p 32 -p 48 -p 64 -p 128 -p 256 -p 512
for size in 16 24 32 48 64 128 256; do
  cp "$out/${size}x${size}.png" "$here/${size}x${size}.png"
done
cp "$out/256x256.png" "$here/128x128@2x.png"
cp "$out/512x512.png" "$here/icon.png"
