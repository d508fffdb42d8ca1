"""Figures in a crowd at sunrise: `portraits/american-people.jpg`."""

import random

from .base import CREAM, CRIMSON, GOLD, HAIR, MIDNIGHT, mix, NAVY, shade, SKIN, SKY, SLATE
from .canvas import Art
from .geometry import bezier, Ridge
from .motifs import draw_birds, sun_rays
from .output import save_jpeg

# ---------------------------------------------------------------- figures
FIG_HAIR = ("short", "long", "bun", "curly", "cap", "short", "bob", "none", "ponytail", "short")
BODY_COLS = (NAVY, CRIMSON, SLATE, SKY, GOLD, CREAM, mix(NAVY, SKY, 0.4), mix(CRIMSON, GOLD, 0.4),
             mix(SLATE, CREAM, 0.3), mix(NAVY, CRIMSON, 0.45))
SKIN_LIST = list(SKIN.values())
HAIR_LIST = [HAIR[k] for k in ("black", "darkbrown", "brown", "auburn", "blonde", "silver", "black",
                               "darkbrown", "grey")]


def figure(art, x, top, h, body, skin, hair_style, hair_col, haze=None, haze_t=0.0, bottom=None):
    """A stylised head-and-shoulders person, top of head at `top`, `h` tall
    (shoulders continue down to `bottom`).  Optional haze colour for depth."""
    if haze is not None and haze_t > 0:
        body, skin, hair_col = (mix(c, haze, haze_t) for c in (body, skin, hair_col))
    r = 0.16 * h
    hy = top + r
    bottom = top + h if bottom is None else bottom
    sw = 0.40 * h                    # half shoulder width
    sy = hy + r * 1.35               # top of shoulders
    if hair_style in ("long", "bob", "curly_long"):
        m = art.mask().ell(x, hy + r * 0.1, r * 1.18, r * 1.12)
        m.rect(x - r * 1.18, hy, x + r * 1.18, hy + r * (1.9 if hair_style == "long" else 1.05), r=r * 0.4)
        art.fill(m, hair_col)
    body_pts = bezier((x, sy - 0.02 * h), (x - sw * 0.55, sy - 0.02 * h), (x - sw, sy + 0.05 * h),
                      (x - sw, sy + 0.32 * h), 20)
    body_pts += [(x - sw * 1.02, bottom + 2)]
    m = art.mask().poly(body_pts + [(2 * x - px, py) for px, py in reversed(body_pts)])
    m.rect(x - r * 0.42, hy, x + r * 0.42, sy + 2)
    art.fill(m, body)
    art.fill(art.mask().rect(x - r * 0.42, hy, x + r * 0.42, sy + 0.02 * h), shade(skin, -0.08))
    art.fill(art.mask().ell(x, hy, r * 0.86, r), skin)
    m = art.mask()
    if hair_style in ("short", "long", "bob", "ponytail", "bun"):
        m.ell(x, hy - r * 0.08, r * 0.92, r * 0.96)
        m.cut(art.mask().ell(x + r * 0.18, hy + r * 0.62, r * 0.96, r * 0.9))
        if hair_style == "bun":
            m.ell(x, hy - r * 1.0, r * 0.42)
        if hair_style == "ponytail":
            m.ell(x - r * 0.95, hy + r * 0.1, r * 0.28, r * 0.62)
    elif hair_style == "curly":
        m.ell(x, hy - r * 0.22, r * 1.02, r * 0.88)
        m.cut(art.mask().ell(x, hy + r * 0.62, r * 0.98, r * 0.8))
    elif hair_style == "cap":
        m.ell(x, hy - r * 0.2, r * 0.9, r * 0.82)
        m.rect(x - r, hy - r * 0.2, x + r, hy + r, v=0)
        m.rect(x - r * 0.2, hy - r * 0.3, x + r * 1.35, hy - r * 0.12, r=r * 0.08)
        hair_col = mix(CRIMSON, hair_col, 0.1) if haze_t < 0.3 else hair_col
    art.fill(m, hair_col)


def crowd(art, rows, seed, haze, x0=-40, x1=840):
    """rows = [(top_y, height, haze_t, spacing)] back to front."""
    rnd = random.Random(seed)
    for top, h, ht, sp in rows:
        x = x0 + rnd.uniform(0, sp)
        while x < x1 + sp:
            hh = h * rnd.uniform(0.86, 1.1)
            figure(art, x, top + (h - hh) + rnd.uniform(-0.04, 0.04) * h, hh,
                   rnd.choice(BODY_COLS), rnd.choice(SKIN_LIST), rnd.choice(FIG_HAIR),
                   rnd.choice(HAIR_LIST), haze, ht, bottom=art.h + 10)
            x += sp * rnd.uniform(0.8, 1.15)


def sunrise_sky(art, sx, sy, sr, horizon_y, seed, rays=True):
    art.paint(art.vgrad([(0.0, MIDNIGHT), (0.35, NAVY), (0.75, (70, 76, 112)),
                         (1.0, (150, 96, 104))], 0, horizon_y))
    art.glow(sx, sy, art.w * 1.1, (190, 100, 92), 0.55, 1.3, ry=art.h * 0.55)
    art.glow(sx, sy, art.w * 0.7, GOLD, 0.75, 1.5, ry=art.h * 0.38)
    art.glow(sx, sy, sr * 3.2, (252, 214, 150), 0.8, 1.4)
    if rays:
        sun_rays(art, sx, sy, 16, max(art.w, art.h) * 0.9, (252, 224, 170), 0.09, seed)
    art.fill(art.mask().ell(sx, sy, sr, sr), (252, 228, 176))
    art.glow(sx, sy, sr, CREAM, 0.85, 1.2)


def make_american_people():
    art = Art(800, 1000)
    sunrise_sky(art, 400, 540, 110, 560, 31)
    hills = Ridge(540, 32, (16, 8, 3), (0.9, 2.1, 5.3), width=800)
    m = art.mask().poly(hills.polygon(-10, 810, 1000))
    art.fill(m, (104, 90, 118))
    art.glow(400, 540, 500, (220, 150, 120), 0.5, 1.4, clip=m)
    draw_birds(art, [(250, 300, 16), (290, 322, 12), (330, 290, 14), (540, 260, 13), (575, 280, 10)],
               NAVY, 0.85)
    haze = (150, 118, 134)
    crowd(art, [(500, 70, 0.62, 46), (528, 92, 0.5, 58), (566, 122, 0.38, 74),
                (616, 160, 0.25, 96), (684, 212, 0.12, 124), (772, 280, 0.0, 160)], 33, haze)
    # a little more warmth and depth over the back of the crowd
    art.glow(400, 560, 420, (236, 170, 120), 0.25, 1.6)
    return art


def make_american_people_file():
    art = make_american_people()
    save_jpeg(art.finish(grain=3, seed=250), "portraits/american-people.jpg")
