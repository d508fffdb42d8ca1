"""The social card (`og-image.jpg`), drawn over the hero."""

from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from .base import CREAM, GOLD, MIDNIGHT
from .canvas import Art
from .mark import draw_mark

# ---------------------------------------------------------------- social card
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


def _font(name, size):
    try:
        return ImageFont.truetype(str(FONT_DIR / name), size)
    except OSError:
        return ImageFont.load_default(size)


def make_og(hero_art):
    W, H = 1200, 630
    art = Art(W, H)          # 2x supersampled; reuse the hero drawing, scaled and cropped
    art.im = hero_art.im.resize((2 * 1200, 2 * 720), Image.LANCZOS).crop((0, 140, 2400, 1400))
    # darker band behind the text: strong on the left, soft on the right
    band = art.mask().rect(-100, 150, 1300, 470).blur(70)
    fade = art.hgrad([(0, (255,) * 3), (0.55, (215,) * 3), (1.0, (120,) * 3)]).convert("L")
    band.m = ImageChops.multiply(band.m, fade)
    art.fill(band, MIDNIGHT, 0.82)
    draw_mark(art, 78, 194, 116)
    d = ImageDraw.Draw(art.im)
    k = art.s
    title = "American Conscience Party"
    x, y = 222, 202
    size = 62
    f1 = _font("DejaVuSerif-Bold.ttf", size * k)
    while d.textlength(title, font=f1) > (W - x - 60) * k and size > 30:
        size -= 2
        f1 = _font("DejaVuSerif-Bold.ttf", size * k)
    f2 = _font("DejaVuSans.ttf", 30 * k)
    d.text(((x + 2) * k, (y + 3) * k), title, font=f1, fill=MIDNIGHT)
    d.text((x * k, y * k), title, font=f1, fill=CREAM)
    ly = y + size + 20
    d.rounded_rectangle([(x + 2) * k, ly * k, (x + 122) * k, (ly + 4) * k], radius=2 * k, fill=GOLD)
    d.text(((x + 2) * k, (ly + 20) * k), "Conscience over party. People over power.", font=f2, fill=CREAM)
    return art.finish(grain=0)
