"""The party mark: `favicon.png` and its hand-written twin `logo.svg`."""

from PIL import Image

from .base import CREAM, CRIMSON, GOLD, NAVY
from .canvas import Art
from .geometry import star_pts
from .output import save_png, save_text

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
