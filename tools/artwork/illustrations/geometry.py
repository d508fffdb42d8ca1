"""Point lists for shapes (ellipses, stars, hearts, curves, ridges, rounded rectangles, capsules)."""

import math
import random

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
