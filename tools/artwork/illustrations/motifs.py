"""Small motifs shared by the illustrations: birds, stars, rays, clouds, trees and buildings."""

import math
import random

from .base import CREAM
from .geometry import bezier

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
