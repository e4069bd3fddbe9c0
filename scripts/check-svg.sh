#!/usr/bin/env bash
# Renders an SVG with headless Chromium and checks that the picture is not blank.
#
#   scripts/check-svg.sh FILE.svg [OUT.png]
#
# Exit 0: rendered, and the PNG has both a light background and enough dark
# (drawn) pixels, in more than one colour. Exit 1: render failed or the picture
# is blank. Exit 77: Chromium is not installed (the caller may skip).
# Needs python3 (standard library only: the PNG is decoded with zlib).
set -euo pipefail
svg=${1:?usage: scripts/check-svg.sh FILE.svg [OUT.png]}
png=${2:-$(mktemp -d)/chart.png}
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then echo "check-svg: chromium not found; skipping" >&2; exit 77; fi
abs=$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")
profile=$(mktemp -d)
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$profile" --screenshot="$png" --window-size=800,500 "file://$abs" >/dev/null 2>&1 || true
rm -rf "$profile"
[ -s "$png" ] || { echo "check-svg: chromium wrote no picture for $svg" >&2; exit 1; }
python3 - "$png" <<'PY'
import struct, sys, zlib
path = sys.argv[1]
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height, ctype = 8, b"", 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8, "unexpected bit depth"
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4, 0: 1, 4: 2}[ctype]
raw = zlib.decompress(idat)
stride = width * bpp
rows, prev, i = [], bytearray(stride), 0
for _ in range(height):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
colours, light, dark, blue = set(), 0, 0, 0
for line in rows:
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3]) if bpp >= 3 else (line[x],) * 3
        colours.add(px)
        s = sum(px)
        if s > 700: light += 1
        elif s < 450: dark += 1
        if bpp >= 3 and px[2] > px[0] + 60: blue += 1
total = width * height
print(f"check-svg: {width}x{height}, {len(colours)} colours, {100*light/total:.1f}% light, {100*dark/total:.2f}% dark, {100*blue/total:.2f}% bar-blue")
assert light > total * 0.3, "no light background: the picture looks blank or black"
assert dark > total * 0.001, "no dark pixels: no text or axes were drawn"
assert len(colours) > 4, "a single flat colour: blank"
PY
echo "check-svg: OK: $png"
