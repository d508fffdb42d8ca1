#!/usr/bin/env python3
"""Draw the American Conscience Party website artwork.

Every image is drawn from code with Pillow (no photos, no external assets
except the DejaVu fonts for the social card).  All randomness uses fixed
seeds, so re-running the script writes byte-identical files.

    python3 -m pip install pillow
    python3 tools/artwork/make_artwork.py          # writes content/media/*
"""
import math
import os
import random
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "content" / "media"

SS = 2  # supersampling factor: draw at SSx, then downscale (anti-aliasing)

# ---------------------------------------------------------------- palette
NAVY = (0x14, 0x21, 0x3D)
MIDNIGHT = (0x0B, 0x1A, 0x33)
CRIMSON = (0xB4, 0x23, 0x31)
GOLD = (0xE0, 0xA5, 0x26)
CREAM = (0xF7, 0xF3, 0xEA)
SKY = (0x8F, 0xB8, 0xDE)
SLATE = (0x5C, 0x6B, 0x82)

SKIN = {
    "porcelain": (0xF5, 0xDC, 0xC6),
    "light": (0xF0, 0xCF, 0xB2),
    "fair": (0xE9, 0xC2, 0x9F),
    "beige": (0xDC, 0xAE, 0x88),
    "tan": (0xC6, 0x8C, 0x62),
    "olive": (0xB9, 0x80, 0x57),
    "brown": (0xA2, 0x6B, 0x46),
    "deep": (0x86, 0x55, 0x36),
    "ebony": (0x6A, 0x41, 0x29),
    "espresso": (0x52, 0x33, 0x22),
}
HAIR = {
    "black": (0x1C, 0x17, 0x1A),
    "darkbrown": (0x3A, 0x26, 0x1E),
    "brown": (0x5E, 0x3E, 0x2B),
    "auburn": (0x8C, 0x3B, 0x26),
    "blonde": (0xD8, 0xB4, 0x6A),
    "silver": (0xC9, 0xC6, 0xC2),
    "grey": (0x8E, 0x8C, 0x8C),
}


def mix(a, b, t):
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(3))


def shade(c, t):
    """t<0 darkens toward black-navy, t>0 lightens toward cream."""
    return mix(c, MIDNIGHT, -t) if t < 0 else mix(c, CREAM, t)


# ---------------------------------------------------------------- geometry
def ellipse_pts(cx, cy, rx, ry, ang=0.0, n=72, t0=0.0, t1=2 * math.pi):
    ca, sa = math.cos(ang), math.sin(ang)
    pts = []
    for i in range(n + 1):
        t = t0 + (t1 - t0) * i / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return pts


def star_pts(cx, cy, r_out, r_in=None, rot=-math.pi / 2, n=5):
    if r_in is None:
        r_in = r_out * 0.382
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = rot + i * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def heart_pts(cx, cy, size, n=80):
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((cx + x * size / 32, cy - y * size / 32))
    return pts


def bezier(p0, p1, p2, p3=None, n=40):
    pts = []
    for i in range(n + 1):
        t = i / n
        if p3 is None:
            x = (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0]
            y = (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1]
        else:
            x = ((1 - t) ** 3 * p0[0] + 3 * (1 - t) ** 2 * t * p1[0]
                 + 3 * (1 - t) * t * t * p2[0] + t ** 3 * p3[0])
            y = ((1 - t) ** 3 * p0[1] + 3 * (1 - t) ** 2 * t * p1[1]
                 + 3 * (1 - t) * t * t * p2[1] + t ** 3 * p3[1])
        pts.append((x, y))
    return pts


class Ridge:
    """A smooth horizon line y(x) built from a few seeded sine waves."""

    def __init__(self, base, seed, amps=(30, 14, 6), freqs=(1.3, 3.1, 7.7), width=2000):
        rnd = random.Random(seed)
        self.base = base
        self.width = width
        self.waves = [(a, f, rnd.uniform(0, 2 * math.pi)) for a, f in zip(amps, freqs)]
        self.tilt = 0.0

    def __call__(self, x):
        u = x / self.width
        y = self.base + self.tilt * (u - 0.5)
        for a, f, p in self.waves:
            y += a * math.sin(2 * math.pi * f * u + p)
        return y

    def polygon(self, x0, x1, bottom, step=6):
        pts = [(x, self(x)) for x in range(int(x0), int(x1) + step, step)]
        return pts + [(x1, bottom), (x0, bottom)]


def mountain_line(x0, x1, base, height, seed, rough=0.55, levels=7):
    """Jagged ridge by midpoint displacement -> list of (x, y)."""
    rnd = random.Random(seed)
    ys = [base - height * rnd.uniform(0.2, 0.6), base - height * rnd.uniform(0.2, 0.6)]
    amp = height
    for _ in range(levels):
        nys = []
        for a, b in zip(ys, ys[1:]):
            nys += [a, (a + b) / 2 + rnd.uniform(-amp, amp) * 0.5]
        nys.append(ys[-1])
        ys = nys
        amp *= rough
    n = len(ys) - 1
    return [(x0 + (x1 - x0) * i / n, min(base, y)) for i, y in enumerate(ys)]


# ---------------------------------------------------------------- canvas
class Mask:
    """An 8-bit coverage mask in design coordinates (scaled by SS)."""

    def __init__(self, art):
        self.art = art
        self.s = art.s
        self.m = Image.new("L", (art.W, art.H), 0)
        self.d = ImageDraw.Draw(self.m)

    def _p(self, pts):
        return [(x * self.s, y * self.s) for x, y in pts]

    def poly(self, pts, v=255):
        self.d.polygon(self._p(pts), fill=v)
        return self

    def ell(self, cx, cy, rx, ry=None, v=255):
        ry = rx if ry is None else ry
        s = self.s
        self.d.ellipse([(cx - rx) * s, (cy - ry) * s, (cx + rx) * s, (cy + ry) * s], fill=v)
        return self

    def rect(self, x0, y0, x1, y1, v=255, r=0):
        s = self.s
        box = [x0 * s, y0 * s, x1 * s, y1 * s]
        if r:
            self.d.rounded_rectangle(box, radius=r * s, fill=v)
        else:
            self.d.rectangle(box, fill=v)
        return self

    def line(self, pts, width, v=255, round_caps=True):
        s = self.s
        self.d.line(self._p(pts), fill=v, width=max(1, int(round(width * s))), joint="curve")
        if round_caps:
            r = width / 2
            for x, y in (pts[0], pts[-1]):
                self.ell(x, y, r, r, v)
        return self

    def ring(self, cx, cy, r, width, v=255):
        s = self.s
        self.d.ellipse([(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s],
                       outline=v, width=max(1, int(round(width * s))))
        return self

    def blur(self, r):
        self.m = self.m.filter(ImageFilter.GaussianBlur(r * self.s))
        self.d = ImageDraw.Draw(self.m)
        return self

    def clip(self, other):
        """Keep only the part inside another mask."""
        self.m = ImageChops.multiply(self.m, other.m)
        self.d = ImageDraw.Draw(self.m)
        return self

    def cut(self, other):
        """Remove the part inside another mask."""
        self.m = ImageChops.subtract(self.m, other.m)
        self.d = ImageDraw.Draw(self.m)
        return self


class Art:
    def __init__(self, w, h, bg=NAVY, ss=SS):
        self.w, self.h, self.s = w, h, ss
        self.W, self.H = w * ss, h * ss
        self.im = Image.new("RGB", (self.W, self.H), bg)

    def mask(self):
        return Mask(self)

    # paints -------------------------------------------------------------
    def vgrad(self, stops, y0=0, y1=None):
        """Vertical gradient image; stops = [(t, color)], t in 0..1 over y0..y1."""
        y1 = self.h if y1 is None else y1
        col = []
        for Y in range(self.H):
            y = Y / self.s
            t = 0.0 if y1 == y0 else (y - y0) / (y1 - y0)
            col.append(_stop_color(stops, t))
        g = Image.new("RGB", (1, self.H))
        g.putdata(col)
        return g.resize((self.W, self.H), Image.NEAREST)

    def hgrad(self, stops, x0=0, x1=None):
        x1 = self.w if x1 is None else x1
        row = []
        for X in range(self.W):
            x = X / self.s
            t = 0.0 if x1 == x0 else (x - x0) / (x1 - x0)
            row.append(_stop_color(stops, t))
        g = Image.new("RGB", (self.W, 1))
        g.putdata(row)
        return g.resize((self.W, self.H), Image.NEAREST)

    def fill(self, mask, paint, opacity=1.0):
        m = mask.m if isinstance(mask, Mask) else mask
        if opacity < 1.0:
            m = m.point(lambda v: int(v * opacity + 0.5))
        if isinstance(paint, tuple):
            self.im.paste(paint, (0, 0, self.W, self.H), m)
        else:
            self.im.paste(paint, (0, 0), m)

    def paint(self, paint):
        if isinstance(paint, tuple):
            self.im.paste(paint, (0, 0, self.W, self.H))
        else:
            self.im.paste(paint, (0, 0))

    def radial(self, cx, cy, r, opacity=1.0, power=2.0, ry=None):
        """A soft radial falloff mask (1 at centre, 0 at radius)."""
        ry = r if ry is None else ry
        m = self.mask()
        size = (max(1, int(2 * r * self.s)), max(1, int(2 * ry * self.s)))
        g = Image.radial_gradient("L").resize(size, Image.BILINEAR)
        lut = [int(255 * opacity * max(0.0, 1 - min(1.0, v / 181.0)) ** power + 0.5)
               for v in range(256)]
        g = g.point(lut)
        m.m.paste(g, (int((cx - r) * self.s), int((cy - ry) * self.s)))
        m.d = ImageDraw.Draw(m.m)
        return m

    def glow(self, cx, cy, r, color, opacity=1.0, power=2.0, clip=None, ry=None):
        m = self.radial(cx, cy, r, opacity, power, ry)
        if clip is not None:
            m.clip(clip)
        self.fill(m, color)

    # output -------------------------------------------------------------
    def finish(self, grain=3, seed=7, size=None):
        im = self.im.resize(size or (self.w, self.h), Image.LANCZOS)
        if grain:
            im = add_grain(im, grain, seed)
        return im


def _stop_color(stops, t):
    if t <= stops[0][0]:
        return stops[0][1]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            u = 0 if t1 == t0 else (t - t0) / (t1 - t0)
            u = u * u * (3 - 2 * u)  # smoothstep: softer transitions
            return mix(c0, c1, u)
    return stops[-1][1]


def add_grain(im, amt, seed):
    """Fine monochrome film grain (+/- amt levels), seeded."""
    rnd = random.Random(seed)
    w, h = im.size
    n = Image.frombytes("L", (w, h), rnd.randbytes(w * h))
    n = n.point(lambda v: v * (2 * amt + 1) // 256)
    n3 = Image.merge("RGB", (n, n, n))
    im = ImageChops.add(im, n3)
    return ImageChops.subtract(im, Image.new("RGB", im.size, (amt, amt, amt)))


def dither(mask, amt, seed):
    """Add seeded +/- amt noise to an 8-bit mask so long, slow ramps don't band."""
    rnd = random.Random(seed)
    n = Image.frombytes("L", mask.size, rnd.randbytes(mask.size[0] * mask.size[1]))
    n = n.point(lambda v: v * (2 * amt + 1) // 256)
    return ImageChops.subtract(ImageChops.add(mask, n), Image.new("L", mask.size, amt))


# ---------------------------------------------------------------- output
def _srgb_icc():
    try:
        from PIL import ImageCms
        icc = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
        icc[24:36] = bytes(12)  # zero the creation date -> deterministic output
        return bytes(icc)
    except Exception:  # littlecms missing: untagged JPEG is read as sRGB anyway
        return None


SRGB_ICC = _srgb_icc()
WRITTEN = []


def save_jpeg(im, rel, quality=84):
    path = OUT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    kw = dict(quality=quality, progressive=True, optimize=True, subsampling="4:2:0")
    if SRGB_ICC:
        kw["icc_profile"] = SRGB_ICC
    im.convert("RGB").save(path, "JPEG", **kw)
    WRITTEN.append(path)


def save_png(im, rel):
    path = OUT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path, "PNG", optimize=True)
    WRITTEN.append(path)


def save_text(text, rel):
    path = OUT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    WRITTEN.append(path)


# ---------------------------------------------------------------- motifs
def draw_birds(art, birds, color, opacity=1.0, width=3.0):
    """birds = [(x, y, span)]: simple gull-wing 'm' strokes."""
    m = art.mask()
    for x, y, sp in birds:
        l = bezier((x - sp, y - sp * 0.18), (x - sp * 0.55, y - sp * 0.55), (x, y))
        r = bezier((x, y), (x + sp * 0.55, y - sp * 0.55), (x + sp, y - sp * 0.18))
        m.line(l, width * sp / 16)
        m.line(r, width * sp / 16)
    art.fill(m, color, opacity)


def draw_stars(art, region, count, seed, color=CREAM, opacity=0.55, rmax=1.8):
    x0, y0, x1, y1 = region
    rnd = random.Random(seed)
    m = art.mask()
    for _ in range(count):
        x, y = rnd.uniform(x0, x1), rnd.uniform(y0, y1)
        r = rnd.uniform(0.6, rmax)
        m.ell(x, y, r, r, v=int(255 * rnd.uniform(0.35, 1.0)))
    art.fill(m, color, opacity)


def sun_rays(art, cx, cy, count, length, color, opacity, seed, spread=math.pi, a0=math.pi):
    rnd = random.Random(seed)
    m = art.mask()
    for i in range(count):
        a = a0 + spread * (i + 0.5) / count + rnd.uniform(-0.03, 0.03)
        hw = rnd.choice((0.018, 0.03, 0.045))
        m.poly([(cx, cy),
                (cx + length * math.cos(a - hw), cy + length * math.sin(a - hw)),
                (cx + length * math.cos(a + hw), cy + length * math.sin(a + hw))])
    m.clip(art.radial(cx, cy, length, 1.0, 1.4))
    art.fill(m, color, opacity)


def cloud_streaks(art, streaks, color, opacity):
    """streaks = [(x, y, length, thickness)] soft horizontal clouds."""
    m = art.mask()
    for x, y, ln, th in streaks:
        m.rect(x, y - th / 2, x + ln, y + th / 2, r=th / 2)
        m.rect(x + ln * 0.15, y - th * 1.2, x + ln * 0.6, y + th / 2, r=th * 0.6)
    m.blur(1.5)
    art.fill(m, color, opacity)


def tree_round(m, x, ground, h):
    m.rect(x - h * 0.05, ground - h * 0.45, x + h * 0.05, ground + 4)
    m.ell(x, ground - h * 0.62, h * 0.30, h * 0.36)
    m.ell(x - h * 0.16, ground - h * 0.50, h * 0.2, h * 0.2)
    m.ell(x + h * 0.17, ground - h * 0.52, h * 0.21, h * 0.2)


def tree_pine(m, x, ground, h):
    m.rect(x - h * 0.04, ground - h * 0.2, x + h * 0.04, ground + 4)
    for k in range(3):
        top = ground - h * (1.0 - k * 0.22)
        bot = ground - h * (0.45 - k * 0.16)
        w = h * (0.2 + k * 0.07)
        m.poly([(x, top), (x + w, bot), (x - w, bot)])


def house(m, x, ground, w, h, roof=0.55):
    m.rect(x, ground - h, x + w, ground + 6)
    m.poly([(x - w * 0.06, ground - h + 1), (x + w / 2, ground - h - w * roof * 0.6),
            (x + w * 1.06, ground - h + 1)])


def church(m, x, ground, s):
    """Small white-clapboard church silhouette; x = steeple centre."""
    m.rect(x - 0.16 * s, ground - 0.55 * s, x + 0.75 * s, ground + 6)           # nave
    m.poly([(x - 0.2 * s, ground - 0.54 * s), (x + 0.3 * s, ground - 0.86 * s),
            (x + 0.79 * s, ground - 0.54 * s)])                                     # roof
    m.rect(x - 0.16 * s, ground - 1.05 * s, x + 0.16 * s, ground)                 # tower
    m.rect(x - 0.12 * s, ground - 1.30 * s, x + 0.12 * s, ground - 1.0 * s)       # belfry
    m.poly([(x - 0.15 * s, ground - 1.29 * s), (x, ground - 2.05 * s),
            (x + 0.15 * s, ground - 1.29 * s)])                                     # spire
    m.rect(x - 0.012 * s, ground - 2.25 * s, x + 0.012 * s, ground - 2.0 * s)     # cross
    m.rect(x - 0.06 * s, ground - 2.19 * s, x + 0.06 * s, ground - 2.165 * s)


def barn(m, x, ground, w, h):
    m.rect(x, ground - h, x + w, ground + 6)
    m.poly([(x - w * 0.04, ground - h), (x + w * 0.12, ground - h - w * 0.28),
            (x + w * 0.5, ground - h - w * 0.42), (x + w * 0.88, ground - h - w * 0.28),
            (x + w * 1.04, ground - h)])


def silo(m, x, ground, w, h):
    m.rect(x, ground - h, x + w, ground + 6)
    m.ell(x + w / 2, ground - h, w / 2, w * 0.42)


def water_tower(m, x, ground, s):
    for dx in (-0.28, 0.28):
        m.line([(x + dx * s, ground), (x + dx * s * 0.7, ground - 0.75 * s)], 0.035 * s)
    m.rect(x - 0.32 * s, ground - 1.05 * s, x + 0.32 * s, ground - 0.72 * s, r=0.06 * s)
    m.poly([(x - 0.36 * s, ground - 1.03 * s), (x, ground - 1.25 * s), (x + 0.36 * s, ground - 1.03 * s)])


# ---------------------------------------------------------------- hero
def draw_dawn_landscape(art, seed=11):
    """2000x1200 dawn landscape; returns nothing, paints into art."""
    W, H = 2000, 1200
    sx, sy, sr = 1440, 792, 96                   # sun
    horizon = 835

    art.paint(art.vgrad([(0.00, MIDNIGHT), (0.32, NAVY), (0.62, (44, 56, 92)),
                         (0.88, (74, 82, 118)), (1.0, (96, 98, 132))], 0, horizon + 40))
    art.glow(sx, sy, 1700, (150, 78, 98), 0.60, 1.2, ry=640)
    art.glow(sx, sy, 1200, (214, 112, 84), 0.75, 1.3, ry=420)
    art.glow(sx, sy, 800, GOLD, 0.85, 1.4, ry=330)
    art.glow(sx, sy, 340, (252, 214, 150), 0.85, 1.4)
    sun_rays(art, sx, sy, 18, 1150, (252, 224, 170), 0.08, seed)
    cloud_streaks(art, [(1030, 600, 380, 9), (1580, 640, 300, 7), (1190, 690, 240, 6),
                        (1720, 560, 240, 6), (880, 680, 200, 5)], (226, 140, 128), 0.35)
    cloud_streaks(art, [(1100, 606, 300, 4), (1620, 644, 200, 3)], (252, 210, 160), 0.45)
    m = art.mask().ell(sx, sy, sr, sr)
    art.fill(m, (252, 228, 176))
    art.glow(sx, sy, sr, CREAM, 0.85, 1.2)

    # distant mountains (hazy, lit by the sun); low on the calm left side
    def scaled(line, k0, k1, base):
        out = []
        for x, y in line:
            u = min(1.0, max(0.0, x / W))
            k = k0 + (k1 - k0) * u * u * (3 - 2 * u)
            k *= 1 - 0.6 * math.exp(-((x - sx) / 240) ** 2)   # a notch for the sun
            out.append((x, base - (base - y) * k))
        return out
    far = scaled(mountain_line(-20, W + 20, horizon + 10, 230, seed + 1, 0.55, 8),
                 0.25, 0.95, horizon + 10)
    m = art.mask().poly(far + [(W + 20, H), (-20, H)])
    art.fill(m, (112, 100, 130))
    art.glow(sx, sy, 800, (222, 150, 120), 0.55, 1.4, clip=m)
    near = scaled(mountain_line(-20, W + 20, horizon + 40, 150, seed + 2, 0.5, 8),
                  0.3, 0.95, horizon + 40)
    m = art.mask().poly(near + [(W + 20, H), (-20, H)])
    art.fill(m, (82, 80, 112))
    art.glow(sx, sy, 700, (196, 120, 110), 0.45, 1.5, clip=m)

    # rolling hills, back to front
    r1 = Ridge(868, seed + 3, (22, 10, 4), (1.1, 2.7, 6.3))
    m1 = art.mask().poly(r1.polygon(-10, W + 10, H))
    art.fill(m1, (70, 74, 104))
    art.glow(sx, sy, 760, (214, 136, 104), 0.5, 1.5, clip=m1)

    r2 = Ridge(930, seed + 4, (26, 12, 5), (0.9, 2.3, 5.1))
    r2.tilt = -40
    m2 = art.mask().poly(r2.polygon(-10, W + 10, H))
    town = art.mask()
    # town on the second ridge, near the sun so it reads against bright sky
    for x, w, h in [(1040, 34, 26), (1082, 40, 34), (1130, 30, 24), (1330, 44, 30),
                    (1384, 36, 40), (1432, 48, 28), (1490, 34, 24), (1560, 40, 32),
                    (1610, 30, 22), (1760, 46, 36), (1815, 34, 26)]:
        house(town, x, r2(x + w / 2) + 4, w, h)
    church(town, 1262, r2(1262) + 6, 120)
    water_tower(town, 1690, r2(1690) + 6, 110)
    for x in (980, 1005, 1185, 1300, 1530, 1655, 1730, 1870):
        tree_round(town, x, r2(x) + 6, 46 + (x % 7) * 3)
    m2.m = ImageChops.lighter(m2.m, town.m)
    art.fill(m2, (44, 52, 84))
    art.glow(sx, sy, 520, (170, 104, 96), 0.35, 1.6, clip=m2)

    # farmland with furrows converging toward the sun
    r3 = Ridge(1010, seed + 5, (30, 12, 4), (0.8, 1.9, 4.7))
    r3.tilt = -70
    m3 = art.mask().poly(r3.polygon(-10, W + 10, H))
    art.fill(m3, art.vgrad([(0, (36, 46, 78)), (1, (24, 36, 66))], 960, 1200))
    furrows = art.mask()
    for i in range(-30, 60):
        x_bottom = sx + i * 70
        furrows.line([(sx, horizon + 60), (x_bottom, H + 40)], 2.2, round_caps=False)
    furrows.clip(m3).clip(art.radial(sx, 1000, 900, 1.0, 1.0, ry=380))
    art.fill(furrows, (120, 106, 120), 0.35)
    art.glow(sx, sy, 600, (200, 130, 100), 0.30, 1.7, clip=m3)
    barnm = art.mask()
    barn(barnm, 1760, r3(1800) + 6, 80, 52)
    silo(barnm, 1850, r3(1862) + 6, 26, 92)
    for x in (1700, 1920, 1955):
        tree_round(barnm, x, r3(x) + 6, 80)
    tree_pine(barnm, 1985, r3(1985) + 6, 110)
    art.fill(barnm, (30, 40, 70))

    # winding road to town, catching the dawn light
    top = r2(1305) + 8
    centre = bezier((1306, top), (1230, 1000), (1420, 1060), (1250, H + 20), 80)
    left, right = [], []
    for i, (x, y) in enumerate(centre):
        t = i / (len(centre) - 1)
        x2, y2 = centre[min(i + 1, len(centre) - 1)]
        x1, y1 = centre[max(i - 1, 0)]
        dx, dy = x2 - x1, y2 - y1
        ln = math.hypot(dx, dy) or 1
        hw = 3 + 95 * t ** 1.5
        left.append((x - dy / ln * hw, y + dx / ln * hw))
        right.append((x + dy / ln * hw, y - dx / ln * hw))
    road = art.mask().poly(left + right[::-1])
    road.cut(town)
    art.fill(road, (150, 110, 112), 0.45)
    art.glow(1300, r2(1300), 420, (240, 184, 130), 0.45, 1.3, clip=road)

    # dark foreground
    r4 = Ridge(1130, seed + 6, (26, 10, 3), (0.7, 1.7, 4.1))
    r4.tilt = 70
    m4 = art.mask().poly(r4.polygon(-10, W + 10, H))
    fg = art.mask()
    tree_round(fg, 1890, r4(1890) + 20, 260)
    tree_pine(fg, 1700, r4(1700) + 10, 150)
    tree_round(fg, 1630, r4(1630) + 10, 110)
    m4.m = ImageChops.lighter(m4.m, fg.m)
    art.fill(m4, MIDNIGHT)

    draw_birds(art, [(1150, 430, 22), (1200, 462, 16), (1240, 412, 18), (1296, 450, 13),
                     (1560, 360, 16), (1602, 384, 12)], NAVY, 0.9)

    # calm, darker left side for overlaid text and form
    veil = art.hgrad([(0.0, (255,) * 3), (0.25, (200,) * 3), (0.58, (0,) * 3)]).convert("L")
    veil = veil.point(lambda v: int(v * 0.78))
    art.fill(dither(veil, 4, seed + 10), MIDNIGHT)   # dithered: no banding in the wide ramp
    draw_stars(art, (20, 20, 1000, 480), 70, seed + 9, CREAM, 0.45)


def make_hero():
    art = Art(2000, 1200)
    draw_dawn_landscape(art)
    save_jpeg(art.finish(grain=3, seed=101), "hero.jpg")
    return art


# ---------------------------------------------------------------- party mark
# One geometry (64x64 units) shared by favicon.png and logo.svg:
# navy rounded square; a crimson sunrise arc over a cream horizon, with a
# gold five-pointed star rising inside the arc.
MARK = dict(
    radius=14,
    star=(32, 34.5, 11, 0.47),          # cx, cy, outer radius, inner/outer ratio
    arc=(32, 43, 20.5, 28),             # cx, horizon y, inner radius, outer radius
    horizon=(6, 45.5, 52, 5.5),         # x, y, width, height
)


def _hex(c):
    return "#%02x%02x%02x" % c


def mark_svg():
    ax, ay, ri, ro_ = MARK["arc"]
    hx, hy, hw, hh = MARK["horizon"]
    cx, cy, ro, k = MARK["star"]
    pts = " ".join("%g,%g" % (round(x, 1), round(y, 1)) for x, y in star_pts(cx, cy, ro, ro * k))
    arc = (f"M{ax - ro_:g} {ay:g}a{ro_:g} {ro_:g} 0 0 1 {2 * ro_:g} 0"
           f"h{ri - ro_:g}a{ri:g} {ri:g} 0 0 0 {-2 * ri:g} 0z")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"'
        ' role="img" aria-label="American Conscience Party">\n'
        f'  <rect width="64" height="64" rx="{MARK["radius"]}" fill="{_hex(NAVY)}"/>\n'
        f'  <path d="{arc}" fill="{_hex(CRIMSON)}"/>\n'
        f'  <rect x="{hx:g}" y="{hy:g}" width="{hw:g}" height="{hh:g}" rx="{hh / 2:g}"'
        f' fill="{_hex(CREAM)}"/>\n'
        f'  <polygon points="{pts}" fill="{_hex(GOLD)}"/>\n'
        "</svg>\n"
    )


def draw_mark(art, x0, y0, size, background=True):
    """Paint the party mark into art with its top-left at (x0, y0)."""
    u = size / 64.0

    def P(x, y):
        return (x0 + x * u, y0 + y * u)

    if background:
        m = art.mask().rect(x0, y0, x0 + size, y0 + size, r=MARK["radius"] * u)
        art.fill(m, NAVY)
    ax, ay, ri, ro_ = MARK["arc"]
    m = art.mask().ell(*P(ax, ay), ro_ * u, ro_ * u)
    m.ell(*P(ax, ay), ri * u, ri * u, v=0)
    m.rect(*P(-1, ay), *P(65, ay + ro_ + 1), v=0)
    art.fill(m, CRIMSON)
    hx, hy, hw, hh = MARK["horizon"]
    m = art.mask().rect(*P(hx, hy), *P(hx + hw, hy + hh), r=hh / 2 * u)
    art.fill(m, CREAM)
    cx, cy, ro, k = MARK["star"]
    m = art.mask().poly([P(x, y) for x, y in star_pts(cx, cy, ro, ro * k)])
    art.fill(m, GOLD)


def make_favicon():
    art = Art(512, 512, bg=(0, 0, 0), ss=4)
    alpha = art.mask().rect(0, 0, 512, 512, r=MARK["radius"] * 8)
    draw_mark(art, 0, 0, 512)
    im = art.im.resize((512, 512), Image.LANCZOS).convert("RGBA")
    im.putalpha(alpha.m.resize((512, 512), Image.LANCZOS))
    save_png(im, "favicon.png")
    save_text(mark_svg(), "logo.svg")
    return im


# ---------------------------------------------------------------- portraits
HEAD = (400, 405, 122, 155)   # cx, cy, rx, ry  (portrait design space 800x1000)


def _head_mask(art, grow=0, dy=0, dx=0):
    cx, cy, rx, ry = HEAD
    return art.mask().ell(cx + dx, cy + dy, rx + grow, ry + grow)


def hair_back(art, style, col):
    cx, cy, rx, ry = HEAD
    m = art.mask()
    if style == "bob":
        m.ell(cx, cy + 10, rx + 48, ry + 40)
        m.rect(0, cy + 150, 800, 1000, v=0)
        m.rect(cx - rx - 48, cy + 60, cx + rx + 48, cy + 150, r=40)
    elif style in ("long_wavy", "long_straight", "curly_long"):
        wide = {"long_wavy": 58, "long_straight": 44, "curly_long": 92}[style]
        bottom = {"long_wavy": 760, "long_straight": 790, "curly_long": 740}[style]
        m.ell(cx, cy, rx + wide, ry + wide * 0.7)
        m.rect(cx - rx - wide, cy, cx + rx + wide, bottom, r=60)
        if style == "long_wavy":
            for i in range(6):
                x = cx - rx - wide + 30 + i * ((2 * (rx + wide) - 60) / 5)
                m.ell(x, bottom - 10, 36, 34)
        if style == "curly_long":
            rnd = random.Random(5)
            for i in range(46):
                a = rnd.uniform(-0.15 * math.pi, 1.15 * math.pi)
                r = rnd.uniform(0.85, 1.05)
                x = cx + (rx + wide - 20) * math.cos(a) * r
                y = cy - (ry + wide * 0.6 - 20) * math.sin(a) * r
                m.ell(x, y, rnd.uniform(30, 44))
            for i in range(10):
                m.ell(cx - rx - wide + 30 + i * 30 + (i > 4) * 120, bottom + rnd.uniform(-20, 10), 34)
    elif style == "bob_bangs":
        m.ell(cx, cy + 4, rx + 40, ry + 30)
        m.rect(cx - rx - 40, cy, cx + rx + 40, cy + 190, r=50)
    elif style == "bun":
        m.ell(cx, cy - ry - 10, 64, 58)
    elif style == "curly_short":
        pass
    else:
        return
    # keep the neck clear: hair falls behind it, not over it
    m.rect(cx - 50, cy + 60, cx + 50, 1000, v=0)
    art.fill(m, col)
    # soft inner shade so the back hair sits behind the face
    sh = art.mask()
    sh.m.paste(m.m)
    sh.clip(art.radial(cx, cy + 80, 240, 1.0, 1.0))
    art.fill(sh, shade(col, -0.35), 0.45)


def hair_front(art, style, col):
    cx, cy, rx, ry = HEAD
    hl = shade(col, 0.22)
    m = art.mask()
    if style in ("side_part", "receding", "buzz"):
        grow = {"side_part": 14, "receding": 6, "buzz": 5}[style]
        m.ell(cx, cy - 4, rx + grow, ry + grow)
        face = art.mask()
        top = {"side_part": cy - 78, "receding": cy - 62, "buzz": cy - 100}[style]
        face.ell(cx, top + 200, rx - 6, 200)
        m.cut(face)
        m.rect(0, cy + 10, 800, 1000, v=0)
        if style == "side_part":
            m.poly(bezier((cx - 60, cy - ry - 4), (cx - 100, cy - 70), (cx - 30, cy - 110),
                          (cx + rx + 8, cy - 80), 30) + [(cx + rx + 12, cy - 110), (cx, cy - ry - 16)])
    elif style == "bob":
        m.ell(cx, cy - 6, rx + 18, ry + 14)
        face = art.mask().ell(cx + 40, cy + 120, rx + 10, 210)
        m.cut(face)
        m.rect(0, cy + 150, 800, 1000, v=0)
    elif style in ("long_wavy", "long_straight", "curly_long", "bun"):
        m.ell(cx, cy - 4, rx + 14, ry + 12)
        face = art.mask()
        if style == "long_straight":          # centre part
            face.ell(cx - 24, cy + 120, rx - 4, 214)
        elif style == "bun":
            face.ell(cx, cy + 130, rx - 4, 220)
        else:                                   # soft side sweep
            face.ell(cx + 26, cy + 120, rx - 4, 214)
        m.cut(face)
        m.rect(0, cy + 60, 800, 1000, v=0)
        if style == "curly_long":
            rnd = random.Random(9)
            for i in range(16):
                a = math.pi * (0.1 + 0.8 * i / 15)
                m.ell(cx + (rx + 4) * math.cos(a), cy - 30 - (ry - 6) * math.sin(a), rnd.uniform(26, 34))
    elif style == "bob_bangs":
        m.ell(cx, cy - 6, rx + 20, ry + 14)
        m.rect(0, cy - 52, 800, 1000, v=0)                    # straight fringe
        m.rect(cx - rx - 20, cy - 60, cx - rx + 16, cy + 150, r=14)
        m.rect(cx + rx - 16, cy - 60, cx + rx + 20, cy + 150, r=14)
    elif style == "curly_short":
        rnd = random.Random(3)
        for i in range(26):
            a = math.pi * (-0.05 + 1.1 * i / 25)
            m.ell(cx + (rx - 4) * math.cos(a), cy - 40 - (ry - 12) * math.sin(a), rnd.uniform(30, 38))
        m.ell(cx, cy - 70, rx - 10, 90)
        face = art.mask().ell(cx, cy + 150, rx - 8, 220)
        m.cut(face)
        m.rect(0, cy - 10, 800, 1000, v=0)
    art.fill(m, col)
    # a single soft highlight band on the crown
    h = art.mask().ell(cx - 30, cy - ry + 10, 80, 34)
    h.blur(14).clip(m)
    art.fill(h, hl, 0.55)


def beard(art, col, full=True):
    """A beard as one flat shape: the lower rim of the face, thicker at the chin."""
    cx, cy, rx, ry = HEAD
    m = _head_mask(art, grow=2)
    m.cut(art.mask().ell(cx, cy - 12, rx - 2, ry - (52 if full else 30)))
    m.rect(0, 0, 800, cy - 10, v=0)
    art.fill(m, col)


def clothing(art, style, c, nb=650):
    """Draw torso + outfit; nb = y of the neck base. c: colours (main, inner, accent)."""
    cx = 400
    main, inner, accent = c["main"], c.get("inner", CREAM), c.get("accent", CRIMSON)
    half = bezier((cx, nb - 6), (cx - 150, nb - 6), (cx - 300, nb + 40), (cx - 318, nb + 150), 40)
    half += bezier((cx - 318, nb + 150), (cx - 330, nb + 230), (cx - 340, 1000), (cx - 350, 1010), 10)
    torso = art.mask().poly(half + [(2 * cx - x, y) for x, y in reversed(half)])
    art.fill(torso, main)
    # light from the upper left, gentle shading on the right shoulder
    sh = art.mask().ell(cx + 260, nb + 290, 240, 300).blur(40).clip(torso)
    art.fill(sh, shade(main, -0.4), 0.35)

    def Y(v):  # outfit drawn relative to the neck base
        return nb + v

    if style in ("suit", "open_collar", "blazer", "cardigan"):
        vb = {"suit": 190, "open_collar": 190, "blazer": 170, "cardigan": 230}[style]
        art.fill(art.mask().poly([(cx - 80, Y(0)), (cx + 80, Y(0)), (cx, Y(vb))]), inner)
        if style == "suit":
            art.fill(art.mask().poly([(cx - 22, Y(28)), (cx + 22, Y(28)), (cx + 14, Y(56)),
                                      (cx - 14, Y(56))]), accent)
            art.fill(art.mask().poly([(cx - 14, Y(52)), (cx + 14, Y(52)), (cx + 26, Y(180)),
                                      (cx, Y(210)), (cx - 26, Y(180))]), accent)
        if style in ("suit", "open_collar"):
            col = shade(inner, -0.12)
            art.fill(art.mask().poly([(cx - 62, Y(-12)), (cx - 4, Y(30)), (cx - 42, Y(94))]), col)
            art.fill(art.mask().poly([(cx + 62, Y(-12)), (cx + 4, Y(30)), (cx + 42, Y(94))]), col)
        if style == "blazer":  # soft rounded neckline of the blouse
            art.fill(art.mask().ell(cx, Y(0), 64, 34).rect(cx - 70, Y(-40), cx + 70, Y(0), v=0),
                     shade(inner, -0.08))
        lap = shade(main, -0.18)
        if style == "cardigan":
            band = art.mask().poly([(cx - 82, Y(0)), (cx - 58, Y(0)), (cx + 2, Y(vb + 10)),
                                    (cx - 2, Y(400)), (cx - 26, Y(400)), (cx - 24, Y(vb + 34))])
            band.poly([(cx + 82, Y(0)), (cx + 58, Y(0)), (cx - 2, Y(vb + 10)),
                       (cx + 2, Y(400)), (cx + 26, Y(400)), (cx + 24, Y(vb + 34))])
            art.fill(band, shade(main, -0.12))
            art.fill(art.mask().ell(cx, Y(0), 70, 38).rect(cx - 80, Y(-40), cx + 80, Y(0), v=0),
                     shade(inner, -0.1))
            for y in (vb + 60, vb + 130, vb + 200):
                art.fill(art.mask().ell(cx - 12, Y(y), 7), CREAM)
        else:
            art.fill(art.mask().poly([(cx - 82, Y(0)), (cx, Y(vb + 20)), (cx - 30, Y(vb + 70)),
                                      (cx - 120, Y(100)), (cx - 98, Y(60)), (cx - 128, Y(42))]), lap)
            art.fill(art.mask().poly([(cx + 82, Y(0)), (cx, Y(vb + 20)), (cx + 30, Y(vb + 70)),
                                      (cx + 120, Y(100)), (cx + 98, Y(60)), (cx + 128, Y(42))]), lap)
        # lapel pin: a tiny gold star
        art.fill(art.mask().poly(star_pts(cx + 140, Y(130), 11)), GOLD)
    elif style == "sweater":
        art.fill(art.mask().poly([(cx - 64, Y(0)), (cx + 64, Y(0)), (cx, Y(100))]), inner)
        ring = art.mask().poly([(cx - 84, Y(-6)), (cx + 84, Y(-6)), (cx, Y(122))])
        ring.cut(art.mask().poly([(cx - 64, Y(0)), (cx + 64, Y(0)), (cx, Y(98))]))
        art.fill(ring, shade(main, -0.15))
        art.fill(art.mask().poly([(cx - 60, Y(-8)), (cx - 2, Y(12)), (cx - 32, Y(54))]), shade(inner, -0.08))
        art.fill(art.mask().poly([(cx + 60, Y(-8)), (cx + 2, Y(12)), (cx + 32, Y(54))]), shade(inner, -0.08))
        art.fill(art.mask().poly(star_pts(cx + 150, Y(140), 11)), GOLD)
    elif style == "turtleneck":
        tn = art.mask().rect(cx - 64, Y(-100), cx + 64, Y(30), r=24)
        art.fill(tn, shade(main, -0.05))
        ribs = art.mask()
        for y in range(-88, 28, 16):
            ribs.line([(cx - 58, Y(y)), (cx + 58, Y(y))], 3)
        ribs.clip(tn)
        art.fill(ribs, shade(main, -0.25), 0.6)
        # a thin gold pendant chain
        art.fill(art.mask().line(bezier((cx - 60, Y(26)), (cx - 30, Y(120)), (cx, Y(146))), 3)
                 .line(bezier((cx, Y(146)), (cx + 30, Y(120)), (cx + 60, Y(26))), 3), GOLD, 0.9)
        art.fill(art.mask().poly(star_pts(cx, Y(160), 13)), GOLD)


def draw_portrait(art, p):
    cx, cy, rx, ry = HEAD
    top, bottom = p["bg"]
    art.paint(art.vgrad([(0, top), (1, bottom)]))
    # quiet background motif: faint sunrise rays from behind the shoulders
    sun_rays(art, cx, 760, 14, 900, p.get("ray", CREAM), 0.07, 4, spread=math.pi)
    # halo
    art.glow(cx, cy - 10, 340, p.get("halo", CREAM), 0.55, 1.6)
    ring = p.get("ring", GOLD)
    art.fill(art.mask().ring(cx, cy - 10, 250, 3), ring, 0.45)
    art.fill(art.mask().ring(cx, cy - 10, 276, 1.5), ring, 0.3)

    skin = SKIN[p["skin"]]
    hair = HAIR[p["hair_col"]]
    # neck
    neck = art.mask().rect(cx - 56, cy + 60, cx + 56, 700, r=20)
    art.fill(neck, shade(skin, -0.06))
    art.fill(art.mask().ell(cx, cy + 128, 70, 40).clip(neck).blur(6), shade(skin, -0.3), 0.5)
    clothing(art, p["outfit"], p["colors"])
    hair_back(art, p["hair"], hair)
    # ears (hidden under long hair)
    if p["hair"] not in ("long_wavy", "long_straight", "curly_long", "bob_bangs"):
        ears = art.mask().ell(cx - rx - 4, cy + 20, 20, 32).ell(cx + rx + 4, cy + 20, 20, 32)
        art.fill(ears, shade(skin, -0.1))
    head = _head_mask(art)
    art.fill(head, skin)
    # soft form shading: darker on the right, warm light on the left cheek
    side = _head_mask(art).cut(_head_mask(art, dx=-34, dy=-10)).blur(8).clip(head)
    art.fill(side, shade(skin, -0.35), 0.35)
    art.glow(cx - 48, cy - 30, 120, shade(skin, 0.35), 0.35, 1.5, clip=head)
    if p.get("beard"):
        beard(art, shade(hair, -0.05) if p["hair_col"] not in ("grey", "silver") else hair,
              p["beard"] == "full")
    hair_front(art, p["hair"], hair)


PEOPLE = {
    "marian-hale": dict(skin="light", hair="bob", hair_col="silver", outfit="blazer",
                        colors=dict(main=NAVY, inner=CREAM),
                        bg=(mix(CRIMSON, CREAM, 0.35), mix(CRIMSON, NAVY, 0.35)), halo=CREAM),
    "daniel-whitcomb": dict(skin="fair", hair="side_part", hair_col="brown", outfit="suit",
                            colors=dict(main=NAVY, inner=CREAM, accent=CRIMSON),
                            bg=(mix(SKY, CREAM, 0.5), SKY), halo=CREAM),
    "teresa-alvarado": dict(skin="tan", hair="long_wavy", hair_col="darkbrown", outfit="blazer",
                            colors=dict(main=CRIMSON, inner=CREAM),
                            bg=(CREAM, mix(GOLD, CREAM, 0.35)), halo=(255, 250, 240)),
    "grace-lindqvist": dict(skin="porcelain", hair="bun", hair_col="blonde", outfit="cardigan",
                            colors=dict(main=SKY, inner=CREAM),
                            bg=(SLATE, NAVY), halo=GOLD),
    "marcus-bell": dict(skin="ebony", hair="buzz", hair_col="black", outfit="open_collar",
                        beard="short", colors=dict(main=SLATE, inner=CREAM),
                        bg=(mix(GOLD, CREAM, 0.55), mix(GOLD, CRIMSON, 0.25)), halo=CREAM),
    "priya-raman": dict(skin="brown", hair="long_straight", hair_col="black", outfit="blazer",
                        colors=dict(main=NAVY, inner=GOLD),
                        bg=(mix(SKY, CREAM, 0.3), SLATE), halo=CREAM),
    "elena-kowalski": dict(skin="light", hair="bob_bangs", hair_col="auburn", outfit="turtleneck",
                           colors=dict(main=NAVY),
                           bg=(CREAM, mix(SKY, CREAM, 0.2)), halo=(255, 252, 245)),
    "thomas-avery": dict(skin="beige", hair="receding", hair_col="grey", outfit="suit",
                         beard="full", colors=dict(main=mix(SLATE, CREAM, 0.2), inner=CREAM, accent=NAVY),
                         bg=(NAVY, MIDNIGHT), halo=GOLD),
    "nathaniel-brooks": dict(skin="deep", hair="curly_short", hair_col="black", outfit="suit",
                             colors=dict(main=NAVY, inner=CREAM, accent=GOLD),
                             bg=(mix(SKY, CREAM, 0.55), mix(SKY, SLATE, 0.4)), halo=CREAM),
    "sofia-ramirez": dict(skin="olive", hair="curly_long", hair_col="darkbrown", outfit="sweater",
                          colors=dict(main=SKY, inner=CREAM),
                          bg=(mix(CRIMSON, CREAM, 0.8), mix(CRIMSON, CREAM, 0.5)), halo=(255, 250, 242)),
}


def make_portraits(only=None):
    for i, (pid, p) in enumerate(PEOPLE.items()):
        if only and pid not in only:
            continue
        art = Art(800, 1000)
        draw_portrait(art, p)
        save_jpeg(art.finish(grain=3, seed=200 + i), f"portraits/{pid}.jpg")


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


# ---------------------------------------------------------------- cards
def rot(pts, ang, ox=0.0, oy=0.0, tx=0.0, ty=0.0):
    """Rotate pts by ang (radians) about (ox, oy), then translate by (tx, ty)."""
    ca, sa = math.cos(ang), math.sin(ang)
    return [(ox + (x - ox) * ca - (y - oy) * sa + tx, oy + (x - ox) * sa + (y - oy) * ca + ty)
            for x, y in pts]


def rrect_pts(x0, y0, x1, y1, r, n=8):
    r = min(r, (x1 - x0) / 2, (y1 - y0) / 2)
    pts = []
    for cx, cy, a0 in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for i in range(n + 1):
            a = math.radians(a0 + 90 * i / n)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def capsule_pts(x0, y0, x1, y1, w, n=12):
    ang = math.atan2(y1 - y0, x1 - x0)
    r = w / 2
    pts = []
    for i in range(n + 1):
        a = ang + math.pi / 2 + math.pi * i / n
        pts.append((x0 + r * math.cos(a), y0 + r * math.sin(a)))
    for i in range(n + 1):
        a = ang - math.pi / 2 + math.pi * i / n
        pts.append((x1 + r * math.cos(a), y1 + r * math.sin(a)))
    return pts


def card_backdrop(art, sx, sy, seed, sr=70, hill_y=600, hill_col=(58, 62, 96), front_col=NAVY):
    sunrise_sky(art, sx, sy, sr, sy + 20, seed)
    r1 = Ridge(hill_y - 40, seed + 1, (20, 9, 3), (0.8, 2.2, 5.0), width=art.w)
    m = art.mask().poly(r1.polygon(-10, art.w + 10, art.h))
    art.fill(m, (96, 86, 116))
    art.glow(sx, sy, art.w * 0.5, (222, 150, 120), 0.5, 1.4, clip=m)
    r2 = Ridge(hill_y + 20, seed + 2, (24, 10, 4), (0.7, 1.8, 4.4), width=art.w)
    m = art.mask().poly(r2.polygon(-10, art.w + 10, art.h))
    art.fill(m, hill_col)
    art.glow(sx, sy, art.w * 0.4, (180, 116, 106), 0.35, 1.5, clip=m)
    return r1, r2


def card_leadership():
    art = Art(1200, 800)
    card_backdrop(art, 600, 470, 41, sr=90, hill_y=520)
    draw_birds(art, [(300, 200, 16), (340, 222, 12), (860, 180, 14), (898, 202, 11)], NAVY, 0.85)
    # seven neighbours standing together: back row then front row
    back = [(390, 360, 265, SLATE, "beige", "short", "brown"),
            (600, 318, 280, mix(CRIMSON, GOLD, 0.35), "ebony", "curly", "black"),
            (810, 356, 265, SKY, "olive", "ponytail", "darkbrown")]
    front = [(265, 440, 320, mix(NAVY, SKY, 0.35), "porcelain", "bun", "blonde"),
             (478, 408, 340, CRIMSON, "tan", "long", "black"),
             (718, 410, 338, NAVY, "brown", "short", "grey"),
             (935, 444, 318, GOLD, "deep", "cap", "black")]
    for x, top, h, body, skin, hair, hc in back:
        figure(art, x, top, h, body, SKIN[skin], hair, HAIR[hc], (150, 118, 134), 0.22, bottom=810)
    for x, top, h, body, skin, hair, hc in front:
        figure(art, x, top, h, body, SKIN[skin], hair, HAIR[hc], bottom=810)
    # rim light from the sunrise on the group
    art.glow(600, 470, 520, (252, 214, 150), 0.18, 1.6)
    # the group stands just behind a near hill crest
    near = Ridge(742, 42, (12, 5, 2), (0.6, 1.6, 3.8), width=1200)
    near.tilt = -30
    m = art.mask().poly(near.polygon(-10, 1210, 800))
    art.fill(m, art.vgrad([(0, NAVY), (1, MIDNIGHT)], 720, 800))
    return art


def open_book(art, cx, top, w, h, pages=CREAM, cover=CRIMSON):
    """Open book seen from the front; spine at cx, page tops near `top`."""
    def page(sign, dy=0, dx=0):
        outer = cx + sign * (w / 2 + dx)
        tc = bezier((cx, top + 30 + dy), (cx + sign * w * 0.18, top - 10 + dy),
                    (cx + sign * w * 0.36, top - 14 + dy), (outer, top + 12 + dy), 30)
        bc = bezier((outer, top + h + 10 + dy), (cx + sign * w * 0.36, top + h - 14 + dy),
                    (cx + sign * w * 0.18, top + h - 10 + dy), (cx, top + h + 32 + dy), 30)
        return tc + bc
    art.fill(art.mask().poly(page(-1, 26, 14)).poly(page(1, 26, 14)), cover)
    art.fill(art.mask().poly(page(-1, 26, 14)).poly(page(1, 26, 14)).blur(18), MIDNIGHT, 0.25)
    for k, d in enumerate((16, 10, 5)):
        art.fill(art.mask().poly(page(-1, d, d * 0.4)).poly(page(1, d, d * 0.4)),
                 shade(pages, -0.12 - 0.05 * k))
    lm = art.mask().poly(page(-1))
    rm = art.mask().poly(page(1))
    art.fill(lm, pages)
    art.fill(rm, shade(pages, -0.04))
    # gutter shadow
    g = art.mask().rect(cx - 30, top - 20, cx + 30, top + h + 40).blur(14)
    g.clip(art.mask().poly(page(-1)).poly(page(1)))
    art.fill(g, SLATE, 0.35)
    # lines of "text" (abstract strokes, no letters)
    lines = art.mask()
    for i in range(7):
        for sign in (-1, 1):
            y = top + 40 + i * (h - 70) / 6
            x0, x1 = cx + sign * 40, cx + sign * (w / 2 - 36)
            if i == 6:   # short closing line, left-aligned on both pages
                x0, x1 = (cx - w / 2 + 36, cx - w / 5) if sign < 0 else (cx + 40, cx + w / 4)
            lines.line([(min(x0, x1), y), (max(x0, x1), y)], 6)
    lines.clip(art.mask().poly(page(-1)).poly(page(1)))
    art.fill(lines, SLATE, 0.35)


def apple(art, x, y, r):
    m = art.mask().ell(x - r * 0.42, y, r * 0.72, r * 0.86).ell(x + r * 0.42, y, r * 0.72, r * 0.86)
    m.ell(x, y + r * 0.2, r * 0.7, r * 0.62)
    art.fill(m, CRIMSON)
    art.glow(x - r * 0.45, y - r * 0.3, r * 0.7, (232, 110, 110), 0.55, 1.5, clip=m)
    sh = art.mask().ell(x + r * 0.5, y + r * 0.35, r * 0.7, r * 0.8).blur(r * 0.15).clip(m)
    art.fill(sh, shade(CRIMSON, -0.4), 0.45)
    art.fill(art.mask().line(bezier((x, y - r * 0.62), (x + r * 0.05, y - r * 0.95),
                                    (x + r * 0.2, y - r * 1.15)), r * 0.1), (84, 56, 40))
    leaf = ellipse_pts(x + r * 0.42, y - r * 1.0, r * 0.36, r * 0.15, ang=-0.5)
    art.fill(art.mask().poly(leaf), GOLD)


def wheat(art, x, y, length, ang, col=GOLD, grains=9):
    """A wheat stalk from (x, y) going up at angle ang (radians from vertical)."""
    dx, dy = math.sin(ang), -math.cos(ang)
    tip = (x + dx * length, y + dy * length)
    m = art.mask().line([(x, y), tip], length * 0.018)
    g0 = 0.45
    for i in range(grains):
        t = g0 + (1 - g0) * i / grains
        px, py = x + dx * length * t, y + dy * length * t
        gl = length * 0.085 * (1 - 0.35 * i / grains)
        for side in (-1, 1):
            a = ang + side * 0.5
            cxg = px + math.sin(a) * gl * 0.55
            cyg = py - math.cos(a) * gl * 0.55
            m.poly(ellipse_pts(cxg, cyg, gl * 0.32, gl * 0.62, ang=a, n=24))
    m.poly(ellipse_pts(tip[0] + dx * length * 0.03, tip[1] + dy * length * 0.03,
                       length * 0.025, length * 0.05, ang=ang, n=24))
    art.fill(m, col)


def schoolhouse(m, x, ground, s):
    m.rect(x - s * 0.5, ground - s * 0.45, x + s * 0.5, ground + 4)
    m.poly([(x - s * 0.58, ground - s * 0.44), (x, ground - s * 0.8), (x + s * 0.58, ground - s * 0.44)])
    m.rect(x - s * 0.1, ground - s * 1.05, x + s * 0.1, ground - s * 0.6)
    m.poly([(x - s * 0.15, ground - s * 1.03), (x, ground - s * 1.25), (x + s * 0.15, ground - s * 1.03)])


def card_issues():
    art = Art(1200, 800)
    r1, r2 = card_backdrop(art, 860, 430, 51, sr=64, hill_y=470)
    m = art.mask()
    schoolhouse(m, 330, r2(330) + 4, 150)
    tree_round(m, 220, r2(220) + 4, 90)
    tree_round(m, 440, r2(440) + 4, 70)
    art.fill(m, (40, 48, 82))
    win = art.mask()
    for wx in (290, 350):
        win.rect(wx, r2(330) - 50, wx + 22, r2(330) - 24)
    win.rect(320, r2(330) - 96, 340, r2(330) - 84, r=4)
    art.fill(win, (248, 210, 140), 0.85)
    draw_birds(art, [(620, 220, 14), (656, 240, 11), (690, 214, 12)], NAVY, 0.85)
    # foreground table/ground
    art.fill(art.mask().poly(Ridge(650, 52, (10, 4, 0), (0.6, 1.5, 3), width=1200).polygon(-10, 1210, 800)),
             art.vgrad([(0, NAVY), (1, MIDNIGHT)], 640, 800))
    open_book(art, 600, 430, 560, 230)
    apple(art, 220, 600, 78)
    for i, a in enumerate((-0.32, -0.12, 0.08, 0.28)):
        wheat(art, 975 + i * 14, 700, 330 - abs(a) * 160, a)
    art.fill(art.mask().rect(958, 610, 1050, 640, r=12), CRIMSON)   # a ribbon tying the sheaf
    return art


def card_contact():
    art = Art(1200, 800)
    card_backdrop(art, 600, 520, 61, sr=80, hill_y=570)
    near = Ridge(690, 62, (18, 7, 2), (0.6, 1.5, 3.6), width=1200)
    near.tilt = 40
    art.fill(art.mask().poly(near.polygon(-10, 1210, 800)), art.vgrad([(0, NAVY), (1, MIDNIGHT)], 660, 800))
    draw_birds(art, [(250, 170, 15), (288, 192, 11), (980, 140, 13)], NAVY, 0.85)
    # rural mailbox on a post (left)
    mb = art.mask().rect(150, 520, 172, 800)
    art.fill(mb, (46, 40, 52))
    box = art.mask().rect(80, 440, 300, 540, r=6).ell(190, 440, 110, 52)
    body = mix(SLATE, CREAM, 0.25)
    art.fill(box, body)
    art.fill(art.mask().rect(80, 500, 300, 540, r=6), shade(body, -0.2))
    art.fill(art.mask().ell(84, 470, 18, 66).rect(60, 400, 84, 545, v=0), shade(body, -0.35))
    art.fill(art.mask().rect(100, 430, 290, 440, r=5), shade(body, 0.3), 0.6)
    art.fill(art.mask().rect(286, 380, 298, 480, r=4).rect(286, 380, 344, 412, r=4), CRIMSON)
    art.glow(150, 430, 170, (252, 214, 150), 0.35, 1.5, clip=box)
    # envelope (centre)
    ex0, ey0, ex1, ey1 = 380, 330, 780, 600
    art.fill(art.mask().rect(ex0 + 14, ey0 + 20, ex1 + 14, ey1 + 20, r=18).blur(14), MIDNIGHT, 0.4)
    art.fill(art.mask().rect(ex0, ey0, ex1, ey1, r=16), CREAM)
    ecx = (ex0 + ex1) / 2
    art.fill(art.mask().poly([(ex0 + 8, ey1 - 6), (ecx, 470), (ex1 - 8, ey1 - 6)]), (236, 228, 212))
    art.fill(art.mask().poly([(ex0 + 4, ey0 + 8), (ex1 - 4, ey0 + 8), (ecx, 490)]), (226, 218, 202))
    art.fill(art.mask().line([(ex0 + 10, ey0 + 10), (ecx, 488), (ex1 - 10, ey0 + 10)], 4, round_caps=False),
             SLATE, 0.35)
    art.fill(art.mask().poly(heart_pts(ecx, 492, 78)), CRIMSON)
    art.fill(art.mask().poly(star_pts(ecx, 486, 18)), GOLD)
    # speech bubbles (right)
    b1 = art.mask().rect(820, 250, 1090, 410, r=60).poly([(880, 400), (850, 470), (940, 405)])
    art.fill(b1, SKY)
    dots = art.mask()
    for i in range(3):
        dots.ell(895 + i * 60, 330, 16)
    art.fill(dots, NAVY)
    b2 = art.mask().rect(860, 450, 1110, 580, r=54).poly([(1040, 570), (1080, 630), (1010, 575)])
    art.fill(b2, GOLD)
    lines = art.mask().line([(910, 495), (1060, 495)], 14).line([(910, 535), (1010, 535)], 14)
    art.fill(lines, CREAM)
    # a dotted flight path of a note from the mailbox to the envelope
    path = bezier((320, 368), (320, 230), (430, 200), (470, 312), 26)
    d = art.mask()
    for px, py in path[::2]:
        d.ell(px, py, 4.5)
    art.fill(d, CREAM, 0.7)
    return art


def hand(art, x, y, ang, s, skin, sleeve, arm=420):
    """Raised open hand; palm centre (x, y), fingers toward ang (0 = straight up)."""
    shapes = [
        ("skin", capsule_pts(0, 0.3 * s, 0, 0.3 * s + arm, 0.56 * s)),
        ("sleeve", capsule_pts(0, 0.3 * s + arm * 0.42, 0, 0.3 * s + arm + 200, 0.84 * s)),
        ("skin", rrect_pts(-0.48 * s, -0.32 * s, 0.48 * s, 0.58 * s, 0.26 * s)),
        ("skin", capsule_pts(-0.42 * s, 0.28 * s, -0.86 * s, -0.22 * s, 0.26 * s)),
    ]
    for fx, ft in ((-0.35, -1.0), (-0.12, -1.16), (0.12, -1.1), (0.35, -0.88)):
        shapes.append(("skin", capsule_pts(fx * s, -0.1 * s, fx * s, ft * s, 0.22 * s)))
    for kind, pts in shapes:
        m = art.mask().poly(rot(pts, ang, 0, 0, x, y))
        art.fill(m, skin if kind == "skin" else sleeve)
    cuff = rot(capsule_pts(0, 0.3 * s + arm * 0.42, 0, 0.3 * s + arm * 0.42 + 1, 0.84 * s), ang, 0, 0, x, y)
    art.fill(art.mask().poly(cuff), shade(sleeve, -0.2))


def card_take_action():
    art = Art(1200, 800)
    card_backdrop(art, 600, 500, 71, sr=80, hill_y=560)
    draw_birds(art, [(180, 160, 15), (216, 182, 11), (1010, 130, 14), (1046, 150, 10)], NAVY, 0.85)
    # banner on two poles
    art.fill(art.mask().rect(300, 170, 312, 800).rect(888, 170, 900, 800), (70, 52, 50))
    art.fill(art.mask().ell(306, 166, 14).ell(894, 166, 14), GOLD)
    top = bezier((312, 200), (500, 240), (700, 170), (888, 205), 40)
    bot = bezier((888, 345), (700, 310), (500, 380), (312, 340), 40)
    banner = art.mask().poly(top + bot)
    art.fill(banner, CREAM)
    stripe = art.mask()
    t0 = bezier((312, 296), (500, 336), (700, 266), (888, 301), 40)
    stripe.line(t0, 18, round_caps=False)
    stripe.clip(banner)
    art.fill(stripe, CRIMSON)
    thin = art.mask().line(bezier((312, 322), (500, 362), (700, 292), (888, 327), 40), 6, round_caps=False)
    art.fill(thin.clip(banner), NAVY)
    stars = art.mask()
    yy = bezier((312, 200), (500, 240), (700, 170), (888, 205), 40)
    for i, x in enumerate((400, 500, 600, 700, 800)):
        ty = min(yy, key=lambda p: abs(p[0] - x))[1]
        stars.poly(star_pts(x, ty + 46, 20))
    art.fill(stars, GOLD)
    shade_m = art.mask().poly(bezier((560, 180), (600, 260), (620, 330), (600, 360), 20) +
                              [(700, 360), (700, 180)]).blur(30).clip(banner)
    art.fill(shade_m, SLATE, 0.15)
    # raised hands of neighbours
    hands = [(120, 470, -0.35, 70, "fair", SKY), (300, 430, -0.06, 78, "deep", CRIMSON),
             (470, 520, 0.1, 74, "olive", GOLD), (640, 480, -0.12, 80, "porcelain", SLATE),
             (800, 520, 0.2, 74, "ebony", mix(NAVY, SKY, 0.4)), (890, 430, 0.05, 76, "tan", CRIMSON)]
    for x, y, a, s, sk, sl in hands:
        hand(art, x, y, a, s, SKIN[sk], sl)
    # clipboard with a checklist (front right)
    cb = (980, 420, 1170, 680)
    ang = 0.12
    ccx, ccy = (cb[0] + cb[2]) / 2, (cb[1] + cb[3]) / 2
    R = lambda pts: rot(pts, ang, ccx, ccy)
    art.fill(art.mask().poly(R(rrect_pts(cb[0] + 12, cb[1] + 16, cb[2] + 12, cb[3] + 16, 14))).blur(12), MIDNIGHT, 0.45)
    art.fill(art.mask().poly(R(rrect_pts(*cb, 14))), (150, 98, 64))
    art.fill(art.mask().poly(R(rrect_pts(cb[0] + 16, cb[1] + 30, cb[2] - 16, cb[3] - 16, 6))), CREAM)
    art.fill(art.mask().poly(R(rrect_pts(ccx - 44, cb[1] - 12, ccx + 44, cb[1] + 30, 10))), SLATE)
    chk = art.mask()
    lines = art.mask()
    for i in range(4):
        y = cb[1] + 80 + i * 50
        bx = cb[0] + 36
        if i < 3:
            chk.line(R([(bx, y), (bx + 10, y + 12), (bx + 30, y - 14)]), 7)
        else:
            lines.line(R([(bx - 2, y - 12), (bx + 22, y - 12), (bx + 22, y + 12), (bx - 2, y + 12),
                           (bx - 2, y - 12)]), 4, round_caps=False)
        lines.line(R([(bx + 50, y), (cb[2] - 36 - (i % 2) * 30, y)]), 9)
    art.fill(lines, SLATE, 0.6)
    art.fill(chk, CRIMSON)
    return art


def make_cards():
    for name, fn, seed in (("leadership", card_leadership, 301), ("issues", card_issues, 302),
                           ("contact", card_contact, 303), ("take-action", card_take_action, 304)):
        save_jpeg(fn().finish(grain=3, seed=seed), f"cards/{name}.jpg")


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


# ---------------------------------------------------------------- donate
def capitol(m, cx, ground, s=1.0):
    """A generic domed civic building (not any specific real building)."""
    S = lambda v: v * s
    m.rect(cx - S(500), ground - S(80), cx + S(500), ground + 6)                # wings
    m.rect(cx - S(520), ground - S(92), cx + S(520), ground - S(78))            # cornice
    m.rect(cx - S(300), ground - S(140), cx + S(300), ground + 6)               # central block
    m.rect(cx - S(312), ground - S(152), cx + S(312), ground - S(136))
    m.rect(cx - S(120), ground - S(170), cx + S(120), ground + 6)               # portico
    m.poly([(cx - S(138), ground - S(168)), (cx, ground - S(222)), (cx + S(138), ground - S(168))])
    m.rect(cx - S(118), ground - S(270), cx + S(118), ground - S(150))          # drum
    m.rect(cx - S(130), ground - S(282), cx + S(130), ground - S(266))
    m.rect(cx - S(100), ground - S(310), cx + S(100), ground - S(280))          # attic
    m.poly(ellipse_pts(cx, ground - S(306), S(100), S(150), t0=math.pi, t1=2 * math.pi))  # dome
    m.rect(cx - S(18), ground - S(492), cx + S(18), ground - S(450))            # lantern
    m.poly(ellipse_pts(cx, ground - S(490), S(20), S(20), t0=math.pi, t1=2 * math.pi))
    m.rect(cx - S(3), ground - S(545), cx + S(3), ground - S(505))              # finial
    m.ell(cx, ground - S(548), S(7))
    # broad steps
    m.poly([(cx - S(150), ground + 6), (cx - S(120), ground - S(20)), (cx + S(120), ground - S(20)),
            (cx + S(150), ground + 6)])


def capitol_details(art, cx, ground, s, col, lit):
    S = lambda v: v * s
    cols = art.mask()
    for i in range(11):                                      # drum colonnade
        x = cx - S(104) + i * S(208) / 10
        cols.rect(x - S(4), ground - S(262), x + S(4), ground - S(156))
    art.fill(cols, shade(col, 0.14))
    ribs = art.mask()
    for k in range(-3, 4):
        t = k / 4.0
        ribs.line(bezier((cx + t * S(100), ground - S(310)), (cx + t * S(96), ground - S(400)),
                         (cx + t * S(40), ground - S(450))), S(3), round_caps=False)
    art.fill(ribs, shade(col, 0.12))
    # portico in front of the drum: pediment and entablature, then its columns
    port = art.mask().poly([(cx - S(138), ground - S(166)), (cx, ground - S(222)), (cx + S(138), ground - S(166))])
    port.rect(cx - S(128), ground - S(170), cx + S(128), ground - S(148))
    port.rect(cx - S(122), ground - S(150), cx + S(122), ground - S(20))
    art.fill(port, shade(col, -0.12))
    art.fill(art.mask().poly([(cx - S(110), ground - S(172)), (cx, ground - S(210)),
                              (cx + S(110), ground - S(172))]), shade(col, 0.05))
    pc = art.mask()
    for i in range(8):
        x = cx - S(104) + i * S(208) / 7
        pc.rect(x - S(6), ground - S(146), x + S(6), ground - S(24))
    art.fill(pc, shade(col, 0.18))
    win = art.mask()
    for side in (-1, 1):
        for i in range(9):
            x = cx + side * (S(330) + i * S(18))
            win.rect(x - S(4), ground - S(60), x + S(4), ground - S(30))
        for i in range(6):
            x = cx + side * (S(140) + i * S(27))
            win.rect(x - S(5), ground - S(118), x + S(5), ground - S(82))
    art.fill(win, lit, 0.75)


def make_donate():
    W, H = 1600, 900
    art = Art(W, H)
    sx, sy, ground = 800, 520, 700
    sunrise_sky(art, sx, sy, 160, 720, 81)
    cloud_streaks(art, [(140, 300, 360, 8), (1080, 260, 380, 9), (1220, 330, 220, 6), (300, 380, 240, 6)],
                  (226, 140, 128), 0.35)
    r = Ridge(ground - 10, 82, (12, 6, 2), (0.8, 2.0, 4.6), width=W)
    m = art.mask().poly(r.polygon(-10, W + 10, H))
    art.fill(m, (82, 80, 112))
    art.glow(sx, sy, 700, (214, 140, 110), 0.45, 1.5, clip=m)
    col = (38, 46, 82)
    b = art.mask()
    capitol(b, sx, ground, 1.0)
    trees = art.mask()
    rnd = random.Random(83)
    for x in list(range(40, 300, 46)) + list(range(1320, 1600, 46)):
        tree_round(trees, x + rnd.uniform(-12, 12), ground + 10, rnd.uniform(90, 140))
    art.fill(trees, (34, 42, 76))
    art.fill(b, col)
    art.glow(sx, sy, 520, (240, 170, 120), 0.35, 1.3, clip=b)
    capitol_details(art, sx, ground, 1.0, col, (250, 210, 140))
    # lawn and a long reflecting pool catching the sunrise
    lawn = art.mask().rect(-10, ground + 4, W + 10, H + 10)
    art.fill(lawn, art.vgrad([(0, (30, 40, 72)), (1, MIDNIGHT)], ground, H))
    pool = art.mask().poly([(560, 770), (1040, 770), (1200, 880), (400, 880)])
    art.fill(pool, art.vgrad([(0, (242, 188, 120)), (0.5, (180, 110, 108)), (1, (70, 74, 110))], 770, 880))
    ripples = art.mask()
    for i in range(7):
        y = 782 + i * 14
        ripples.line([(760 - i * 30, y), (840 + i * 30, y)], 2.4)
    ripples.clip(pool)
    art.fill(ripples, CREAM, 0.35)
    # reflected silhouette of the dome in the pool
    refl = art.mask()
    refl.poly(ellipse_pts(sx, 770, 80, 70, t0=0, t1=math.pi))
    refl.rect(sx - 160, 770, sx + 160, 784)
    refl.clip(pool)
    art.fill(refl, col, 0.45)
    fg = art.mask()
    for x, h in ((60, 220), (170, 170), (1450, 200), (1560, 240)):
        tree_round(fg, x, H + 20, h)
    fg.poly([(-10, 840), (300, 860), (420, 900), (-10, 910)]).poly([(1610, 830), (1300, 860), (1180, 910), (1610, 910)])
    art.fill(fg, MIDNIGHT)
    draw_birds(art, [(540, 240, 18), (584, 264, 13), (620, 232, 15), (1010, 210, 14), (1046, 232, 11)],
               NAVY, 0.9)
    save_jpeg(art.finish(grain=3, seed=401), "donate.jpg")


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
