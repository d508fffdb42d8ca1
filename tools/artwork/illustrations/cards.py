"""The four promo cards (`cards/*.jpg`)."""

import math

from .base import CREAM, CRIMSON, GOLD, HAIR, MIDNIGHT, mix, NAVY, shade, SKIN, SKY, SLATE
from .canvas import Art
from .crowd import figure, sunrise_sky
from .geometry import bezier, capsule_pts, ellipse_pts, heart_pts, Ridge, rot, rrect_pts, star_pts
from .motifs import draw_birds, tree_round
from .output import save_jpeg

# ---------------------------------------------------------------- cards



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
