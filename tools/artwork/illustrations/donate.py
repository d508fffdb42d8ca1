"""The donate page illustration (`donate.jpg`)."""

import math
import random

from .base import CREAM, MIDNIGHT, NAVY, shade
from .canvas import Art
from .crowd import sunrise_sky
from .geometry import bezier, ellipse_pts, Ridge
from .motifs import cloud_streaks, draw_birds, tree_round
from .output import save_jpeg

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
