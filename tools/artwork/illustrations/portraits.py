"""The leadership portraits (`portraits/*.jpg`) and the people they show (`PEOPLE`)."""

import math
import random

from .base import CREAM, CRIMSON, GOLD, HAIR, MIDNIGHT, mix, NAVY, shade, SKIN, SKY, SLATE
from .canvas import Art
from .geometry import bezier, star_pts
from .motifs import sun_rays
from .output import save_jpeg

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
