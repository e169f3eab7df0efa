#!/usr/bin/env python3
"""A small Pillow batch thumbnailer: the Pillow peer of ThumbKit's benchmark.

Written the way a Pillow user would write it: JPEG shrink-on-load with ``Image.draft()`` then
``ImageOps.fit`` (fill: scale and centre-crop to exactly the size), or ``Image.thumbnail`` (fit:
the whole picture inside the box; it calls ``draft()`` itself), both with LANCZOS, and a
``multiprocessing`` pool of ``--jobs`` processes, one file per task. Never upscales in fit mode.

Each input becomes OUT/<stem>.jpg, or OUT/<stem>.png with ``--format png``, or OUT/<stem>.webp with
``--format webp`` (lossy WebP at ``--quality``, Pillow's default method 4). JPEG output flattens
transparency over white; PNG and WebP output keep alpha. EXIF orientation is not applied (the peers are
run the same way on the same upright corpus).

    python3 pillow_thumb.py --size 88x88 --mode fill --quality 85 --out OUT --jobs 2 FILES...
    python3 pillow_thumb.py --width 720 --mode fit --quality 80 --out OUT FILES...
    python3 pillow_thumb.py --size 256x256 --mode fit --format webp --quality 80 --out OUT FILES...

Exit status: 0 when every file was written, 1 when any failed (each failure is printed to
stderr as "pillow_thumb: <path>: <reason>"), 2 for bad arguments.
"""

import argparse
import multiprocessing
import os
import sys

from PIL import Image, ImageOps

HUGE = 1 << 30  # "no limit" for the height of --width boxes


def parse_size(text):
    try:
        w, h = text.lower().split("x")
        w, h = int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WxH, got {text!r}")
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return w, h


def parse_args(argv):
    p = argparse.ArgumentParser(prog="pillow_thumb", description=__doc__.splitlines()[0])
    box = p.add_mutually_exclusive_group(required=True)
    box.add_argument("--size", type=parse_size, help="target box WxH")
    box.add_argument("--width", type=int, help="target width; height follows the aspect ratio")
    p.add_argument("--mode", choices=("fill", "fit"), default="fit")
    p.add_argument("--quality", type=int, default=85, help="JPEG or WebP quality (default 85)")
    p.add_argument("--format", choices=("jpeg", "png", "webp"), default="jpeg", help="output format")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    if args.width is not None:
        if args.width <= 0:
            p.error("--width must be positive")
        if args.mode == "fill":
            p.error("--width needs --mode fit (fill needs both sides)")
        args.size = (args.width, HUGE)
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    return args


def thumbnail(task):
    """Makes one thumbnail; returns None or an error line (workers never raise)."""
    path, size, mode, quality, fmt, out = task
    try:
        with Image.open(path) as im:
            if mode == "fill":
                # Shrink-on-load: libjpeg's DCT scaling by 1/2, 1/4 or 1/8 while both sides stay
                # >= the box (a no-op for PNG); ImageOps.fit then scales and centre-crops.
                im.draft("RGB", size)
                result = ImageOps.fit(im, size, method=Image.Resampling.LANCZOS)
            else:
                # thumbnail() does its own draft() (keeping >= 2x the target, reducing_gap=2).
                im.thumbnail(size, resample=Image.Resampling.LANCZOS)
                result = im
            stem = os.path.splitext(os.path.basename(path))[0]
            if fmt == "png":
                result.save(os.path.join(out, stem + ".png"))
            elif fmt == "webp":
                # WebP holds RGB or RGBA: palette, grey and tRNS inputs are widened, alpha kept.
                if result.mode != "RGBA" and (result.mode in ("LA", "PA") or "transparency" in result.info):
                    result = result.convert("RGBA")
                elif result.mode not in ("RGB", "RGBA"):
                    result = result.convert("RGB")
                result.save(os.path.join(out, stem + ".webp"), "WEBP", quality=quality)
            else:
                if result.mode in ("RGBA", "LA", "P", "PA"):
                    rgba = result.convert("RGBA")
                    flat = Image.new("RGB", rgba.size, (255, 255, 255))
                    flat.paste(rgba, mask=rgba.getchannel("A"))
                    result = flat
                elif result.mode not in ("RGB", "L"):
                    result = result.convert("RGB")
                result.save(os.path.join(out, stem + ".jpg"), quality=quality)
        return None
    except Exception as e:  # one bad file must not stop the batch
        return f"pillow_thumb: {path}: {e}"


def main(argv):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    tasks = [(f, args.size, args.mode, args.quality, args.format, args.out) for f in args.files]
    if args.jobs == 1:
        results = map(thumbnail, tasks)
        failures = [r for r in results if r]
    else:
        with multiprocessing.Pool(args.jobs) as pool:
            failures = [r for r in pool.imap_unordered(thumbnail, tasks) if r]
    for line in failures:
        print(line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
