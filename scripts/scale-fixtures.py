#!/usr/bin/env python3
"""Scale fixtures for ThumbKit: tiny PNGs, an import document of N records, output rows and files.
usage: gen.py images DIR COUNT            -- COUNT distinct 16x16 PNGs img<i>.png
       gen.py doc FILE BUGS FOODS IMGDIR  -- import JSON (every record has one of 64 images)
       gen.py outputs DB OUT              -- 2 output rows + files per bug and food (fabricated)
"""
import json, os, sqlite3, struct, sys, zlib

def png(seed, size=16):
    raw = b"".join(b"\0" + b"".join(bytes(((x * 7 + seed) % 256, (y * 5 + seed * 3) % 256, (seed * 11) % 256))
                                      for x in range(size)) for y in range(size))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

cmd = sys.argv[1]
if cmd == "images":
    d, n = sys.argv[2], int(sys.argv[3]); os.makedirs(d, exist_ok=True)
    for i in range(n):
        open(os.path.join(d, f"img{i}.png"), "wb").write(png(i))
elif cmd == "doc":
    f, nb, nf, imgs = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    cats = [f"Category {c}" for c in range(10)]
    doc = {"categories": cats,
           "bugs": [{"title": f"Bug {i}", "rating": (i % 11) / 2, "image": f"{imgs}/img{i % 64}.png"} for i in range(nb)],
           "foods": [{"category": cats[i % 10], "name": f"Food {i}", "image": f"{imgs}/img{i % 64}.png"} for i in range(nf)]}
    json.dump(doc, open(f, "w"))
elif cmd == "outputs":
    db, out = sys.argv[2], sys.argv[3]
    con = sqlite3.connect(db)
    rows = []
    for kind, table, recipes in (("bug", "bugs", ("bug-list", "bug-detail")), ("food", "foods", ("food-list", "food-detail"))):
        for (rid, sha) in con.execute(f"SELECT id, image_sha256 FROM {table}"):
            folder = f"{kind}s/{rid}-r{rid}"
            os.makedirs(os.path.join(out, folder), exist_ok=True)
            for recipe in recipes:
                path = f"{folder}/{recipe}.{sha[:8]}.jpg"
                open(os.path.join(out, path), "wb").close()
                rows.append((kind, rid, recipe + "/fabricated", "list" if recipe.endswith("list") else "detail", 1,
                             path, 44, 44, "jpeg", 0, sha, "2026-12-01T00:00:00Z"))
    con.executemany("INSERT INTO outputs (record_kind, record_id, recipe, kind, scale, path, width, height, format, "
                    "bytes, source_sha256, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.commit()
    print(len(rows), "rows")
