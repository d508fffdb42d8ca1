"""The supersampled canvas (`Art`), its coverage masks (`Mask`), gradients, grain and dither."""

import random

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .base import mix, NAVY, SS

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
