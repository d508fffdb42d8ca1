"""The hero landscape at dawn (`hero.jpg`)."""

import math

from PIL import ImageChops

from .base import CREAM, GOLD, MIDNIGHT, NAVY
from .canvas import Art, dither
from .geometry import bezier, mountain_line, Ridge
from .motifs import barn, church, cloud_streaks, draw_birds, draw_stars, house, silo, sun_rays, tree_pine, tree_round, water_tower
from .output import save_jpeg

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
