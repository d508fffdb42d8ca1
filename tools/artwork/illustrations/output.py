"""Writing files: JPEG (sRGB-tagged, deterministic), PNG and text; `WRITTEN` lists them."""

from .base import OUT

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
