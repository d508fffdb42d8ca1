#!/usr/bin/env python3
"""Draw the American Conscience Party website artwork.

Every image is drawn from code with Pillow (no photos, no external assets
except the DejaVu fonts for the social card).  All randomness uses fixed
seeds, so re-running the script writes byte-identical files.

    python3 -m pip install pillow
    python3 tools/artwork/make_artwork.py          # writes content/media/*

The drawing code is in the `illustrations` package beside this script: the canvas,
geometry, motifs and output helpers, and one module per illustration.
"""
from PIL import Image

from illustrations.base import OUT, ROOT
from illustrations.cards import make_cards
from illustrations.crowd import make_american_people_file
from illustrations.donate import make_donate
from illustrations.hero import make_hero
from illustrations.mark import make_favicon
from illustrations.output import WRITTEN, save_jpeg
from illustrations.portraits import make_portraits
from illustrations.social import make_og


# ---------------------------------------------------------------- main
def main():
    OUT.mkdir(parents=True, exist_ok=True)
    hero = make_hero()
    save_jpeg(make_og(hero), "og-image.jpg")
    make_cards()
    make_american_people_file()
    make_portraits()
    make_favicon()
    make_donate()
    total = 0
    for p in WRITTEN:
        size = p.stat().st_size
        total += size
        with Image.open(p) if p.suffix != ".svg" else _NullCtx() as im:
            dims = "%dx%d" % im.size if im else "vector"
        print(f"{p.relative_to(ROOT)}  {dims}  {size:,} bytes")
    print(f"total {total:,} bytes in {len(WRITTEN)} files")


class _NullCtx:
    def __enter__(self):
        return None

    def __exit__(self, *a):
        return False


if __name__ == "__main__":
    main()
