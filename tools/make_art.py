#!/usr/bin/env python3
"""Draws Fray's art: terrain tiles, token discs, weapon icons and condition
marks. Run from the repository root: `python3 tools/make_art.py` (needs
Pillow). The PNGs it writes under assets/ are committed; the game never runs
this. Everything is drawn at 4x and scaled down for smooth edges."""

import math
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

OUT = Path(__file__).resolve().parent.parent / "assets"
T = 64          # tile / icon size in the game
S = 4           # supersampling
B = T * S       # drawing size


def canvas(bg=(0, 0, 0, 0)):
    im = Image.new("RGBA", (B, B), bg)
    return im, ImageDraw.Draw(im)


def done(im):
    return im.resize((T, T), Image.LANCZOS)


def speckle(d, rnd, colours, n, rmin, rmax):
    for _ in range(n):
        x, y = rnd.randrange(B), rnd.randrange(B)
        r = rnd.randint(rmin, rmax)
        d.ellipse([x - r, y - r, x + r, y + r], fill=rnd.choice(colours))


# ----------------------------------------------------------------- terrain

def open_ground(seed=1):
    rnd = random.Random(seed)
    im, d = canvas((104, 142, 74, 255))
    speckle(d, rnd, [(96, 132, 68, 255), (114, 152, 80, 255), (90, 126, 64, 255)], 90, 6, 16)
    for _ in range(26):  # grass blades
        x, y = rnd.randrange(B), rnd.randrange(B)
        d.line([x, y, x + rnd.randint(-6, 6), y - rnd.randint(10, 22)], fill=(74, 110, 52, 255), width=4)
    return im


def wall():
    im, d = canvas((88, 86, 92, 255))
    rows = 4
    h = B // rows
    for r in range(rows):
        off = 0 if r % 2 == 0 else B // 4
        for c in range(-1, 3):
            x0 = c * (B // 2) + off
            d.rectangle([x0 + 5, r * h + 5, x0 + B // 2 - 5, (r + 1) * h - 5],
                        fill=(128, 124, 132, 255), outline=(70, 68, 74, 255), width=5)
            d.line([x0 + 10, r * h + 10, x0 + B // 2 - 14, r * h + 10], fill=(156, 152, 160, 255), width=4)
    return im


def difficult():
    rnd = random.Random(3)
    im = open_ground(3)
    d = ImageDraw.Draw(im)
    for _ in range(14):  # rubble and scrub
        x, y = rnd.randrange(20, B - 20), rnd.randrange(20, B - 20)
        r = rnd.randint(10, 22)
        pts = [(x + r * math.cos(a) * rnd.uniform(0.6, 1.0), y + r * math.sin(a) * rnd.uniform(0.6, 1.0))
               for a in [i * math.tau / 7 for i in range(7)]]
        d.polygon(pts, fill=rnd.choice([(120, 104, 80, 255), (138, 120, 92, 255), (100, 88, 70, 255)]),
                  outline=(70, 60, 48, 255))
    for _ in range(6):
        x, y = rnd.randrange(B), rnd.randrange(B)
        for a in range(5):
            ang = -math.pi / 2 + (a - 2) * 0.35
            d.line([x, y, x + 26 * math.cos(ang), y + 26 * math.sin(ang)], fill=(60, 92, 40, 255), width=5)
    return im


def water():
    im, d = canvas((52, 104, 170, 255))
    rnd = random.Random(4)
    speckle(d, rnd, [(48, 98, 160, 255), (60, 114, 182, 255)], 40, 10, 24)
    for row in range(5):
        y0 = 24 + row * 48
        for k in range(3):
            x0 = k * 90 + (row % 2) * 40
            d.arc([x0, y0, x0 + 60, y0 + 28], 200, 340, fill=(170, 206, 236, 255), width=6)
    return im


def low_cover():
    im = open_ground(5)
    d = ImageDraw.Draw(im)
    # two stacked crates
    for (x0, y0, w) in [(30, 70, 110), (120, 120, 110)]:
        d.rectangle([x0, y0, x0 + w, y0 + w], fill=(160, 116, 64, 255), outline=(92, 62, 30, 255), width=8)
        d.line([x0, y0, x0 + w, y0 + w], fill=(112, 78, 40, 255), width=8)
        d.line([x0 + w, y0, x0, y0 + w], fill=(112, 78, 40, 255), width=8)
    return im


def high_cover():
    im = open_ground(6)
    d = ImageDraw.Draw(im)
    # a tree seen from above: dark canopy, trunk shadow
    d.ellipse([40, 50, B - 30, B - 20], fill=(30, 48, 26, 160))
    for (cx, cy, r, col) in [(120, 118, 96, (44, 92, 44, 255)), (100, 100, 60, (58, 112, 54, 255)),
                             (150, 140, 52, (52, 104, 50, 255)), (112, 96, 30, (84, 140, 70, 255))]:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=col)
    return im


def high_ground():
    rnd = random.Random(7)
    im, d = canvas((150, 136, 90, 255))
    speckle(d, rnd, [(142, 128, 84, 255), (160, 146, 98, 255)], 70, 6, 16)
    # contour hatching: reads as "raised"
    for k in range(4):
        y = 30 + k * 60
        d.line([0, y, B, y - 20], fill=(118, 104, 66, 255), width=6)
    d.rectangle([0, 0, B - 1, B - 1], outline=(196, 180, 124, 255), width=6)
    return im


def pit():
    # A dark drop with a ragged rim and spikes at the bottom.
    im = open_ground(8)
    d = ImageDraw.Draw(im)
    d.rectangle([14, 14, B - 14, B - 14], fill=(120, 96, 70, 255))
    d.rectangle([28, 28, B - 28, B - 28], fill=(22, 16, 14, 255))
    for k in range(5):
        x = 48 + k * 40
        d.polygon([(x - 12, B - 40), (x + 12, B - 40), (x, B - 90)], fill=(150, 150, 160, 255))
    return im


TERRAIN = [open_ground, wall, difficult, water, low_cover, high_cover, high_ground, pit]


def terrain_atlas():
    atlas = Image.new("RGBA", (T * len(TERRAIN), T))
    for i, f in enumerate(TERRAIN):
        atlas.paste(done(f()), (i * T, 0))
    return atlas


# ------------------------------------------------------------------ tokens

def disc():
    im, d = canvas()
    d.ellipse([8, 8, B - 8, B - 8], fill=(0, 0, 0, 110))            # shadow
    d.ellipse([4, 0, B - 12, B - 16], fill=(255, 255, 255, 255), outline=(30, 30, 30, 255), width=10)
    return done(im)


def ring():
    im, d = canvas()
    d.ellipse([2, 2, B - 2, B - 2], outline=(255, 255, 255, 255), width=14)
    return done(im)


INK = (28, 26, 30, 255)


def icon(draw_fn):
    im, d = canvas()
    draw_fn(d)
    return done(im)


def sword(d):
    d.polygon([(128, 36), (142, 60), (140, 170), (116, 170), (114, 60)], fill=INK)
    d.rectangle([82, 168, 174, 184], fill=INK)
    d.rectangle([120, 184, 136, 220], fill=INK)
    d.ellipse([116, 214, 140, 238], fill=INK)


def bow(d):
    d.arc([40, 30, 190, 226], 270, 90, fill=INK, width=14)
    d.line([114, 36, 114, 220], fill=INK, width=5)
    d.line([70, 128, 200, 128], fill=INK, width=8)
    d.polygon([(212, 128), (190, 114), (190, 142)], fill=INK)


def spear(d):
    d.line([70, 214, 180, 60], fill=INK, width=12)
    d.polygon([(196, 36), (160, 60), (184, 86)], fill=INK)


def axe(d):
    d.line([90, 220, 160, 50], fill=INK, width=14)
    d.pieslice([120, 40, 230, 150], 250, 70, fill=INK)


def crown(d):
    d.polygon([(52, 180), (60, 84), (96, 130), (128, 64), (160, 130), (196, 84), (204, 180)], fill=INK)
    d.rectangle([52, 184, 204, 206], fill=INK)


def crossbow(d):
    d.line([128, 220, 128, 56], fill=INK, width=16)
    d.arc([46, 60, 210, 150], 190, 350, fill=INK, width=14)
    d.line([54, 104, 202, 104], fill=INK, width=5)


def shield(d):
    d.polygon([(68, 58), (188, 58), (188, 130), (128, 216), (68, 130)], fill=INK)
    d.polygon([(88, 76), (168, 76), (168, 126), (128, 188), (88, 126)], fill=(255, 255, 255, 0))
    d.line([128, 76, 128, 190], fill=INK, width=12)


def javelin(d):
    d.line([60, 200, 200, 60], fill=INK, width=9)
    d.polygon([(214, 46), (178, 60), (200, 82)], fill=INK)
    d.line([50, 170, 90, 210], fill=INK, width=6)


def claws(d):
    # Three claw rakes: a beast.
    for k in range(3):
        x = 78 + k * 44
        d.line([x, 60, x + 30, 200], fill=INK, width=16)
        d.polygon([(x - 8, 64), (x + 10, 40), (x + 14, 70)], fill=INK)


def dagger(d):
    d.polygon([(128, 70), (140, 90), (138, 160), (118, 160), (116, 90)], fill=INK)
    d.rectangle([96, 158, 160, 172], fill=INK)
    d.rectangle([120, 172, 136, 206], fill=INK)


def club(d):
    d.line([86, 214, 150, 80], fill=INK, width=18)
    d.ellipse([122, 36, 198, 112], fill=INK)


def hooves(d):
    # A horseshoe: a mount.
    d.arc([56, 44, 200, 188], 140, 400, fill=INK, width=30)
    d.line([74, 158, 66, 212], fill=INK, width=28)
    d.line([182, 158, 190, 212], fill=INK, width=28)
    for (x, y) in [(76, 112), (180, 112), (100, 66), (156, 66)]:
        d.ellipse([x - 6, y - 6, x + 6, y + 6], fill=(255, 255, 255, 255))


def wheel(d):
    # A cart wheel: a vehicle.
    d.ellipse([48, 48, 208, 208], outline=INK, width=18)
    d.ellipse([110, 110, 146, 146], fill=INK)
    for k in range(8):
        a = k * math.pi / 4
        d.line([128, 128, 128 + 76 * math.cos(a), 128 + 76 * math.sin(a)], fill=INK, width=9)


ICONS = {"hooves": hooves, "wheel": wheel, "sword": sword, "bow": bow, "spear": spear, "axe": axe, "crown": crown,
         "crossbow": crossbow, "shield": shield, "javelin": javelin,
         "claws": claws, "dagger": dagger, "club": club}


# --------------------------------------------------------- condition marks

def mark(bg, draw_fn):
    im, d = canvas()
    d.ellipse([8, 8, B - 8, B - 8], fill=bg, outline=(20, 20, 20, 255), width=12)
    draw_fn(d)
    return done(im)


W = (255, 255, 255, 255)


def m_stunned(d):
    for (cx, cy) in [(90, 100), (166, 100), (128, 170)]:
        pts = [(cx + 30 * math.cos(a) * (1 if i % 2 == 0 else 0.45), cy + 30 * math.sin(a) * (1 if i % 2 == 0 else 0.45))
               for i, a in enumerate([k * math.pi / 5 - math.pi / 2 for k in range(10)])]
        d.polygon(pts, fill=W)


def m_prone(d):
    d.rectangle([56, 150, 200, 176], fill=W)
    d.ellipse([40, 130, 84, 174], fill=W)


def m_unconscious(d):
    for (x, y, s) in [(70, 150, 50), (130, 100, 40)]:
        d.line([x, y - s, x + s, y - s], fill=W, width=12)
        d.line([x + s, y - s, x, y], fill=W, width=12)
        d.line([x, y, x + s, y], fill=W, width=12)


def m_dead(d):
    d.line([74, 74, 182, 182], fill=W, width=24)
    d.line([182, 74, 74, 182], fill=W, width=24)


def m_fled(d):
    d.line([60, 128, 180, 128], fill=W, width=20)
    d.polygon([(206, 128), (160, 84), (160, 172)], fill=W)


def m_surrendered(d):
    d.line([84, 56, 84, 206], fill=W, width=12)
    d.polygon([(90, 60), (190, 84), (90, 120)], fill=W)


def m_crouching(d):
    d.polygon([(64, 100), (128, 170), (192, 100), (192, 130), (128, 200), (64, 130)], fill=W)


def m_surprised(d):
    d.rectangle([116, 56, 140, 156], fill=W)
    d.ellipse([112, 172, 144, 204], fill=W)


def m_immobilized(d):
    d.ellipse([70, 90, 130, 150], outline=W, width=14)
    d.ellipse([126, 106, 186, 166], outline=W, width=14)


def m_incapacitated(d):
    # A figure down: a bar with a head, and a downward arrow above it.
    d.rectangle([56, 168, 200, 190], fill=W)
    d.ellipse([40, 150, 80, 190], fill=W)
    d.line([128, 56, 128, 126], fill=W, width=16)
    d.polygon([(98, 112), (158, 112), (128, 146)], fill=W)


def m_broken(d):
    # A cracked shield: morale broken.
    d.polygon([(72, 60), (184, 60), (184, 130), (128, 200), (72, 130)], outline=W, width=12)
    d.line([132, 60, 112, 110, 142, 130, 120, 200], fill=W, width=12)


def m_steadfast(d):
    # A tick: passed the morale check.
    d.line([70, 130, 112, 176, 190, 80], fill=W, width=26)


def m_grabbed(d):
    # A closed hand: held in a grip.
    d.rounded_rectangle([70, 96, 186, 190], radius=26, fill=W)
    for x in (78, 106, 134, 162):
        d.rounded_rectangle([x, 62, x + 24, 112], radius=12, fill=W)
    d.line([84, 120, 172, 120], fill=(20, 20, 20, 255), width=6)


def m_concealed(d):
    # A closed eye.
    d.arc([56, 70, 200, 186], 20, 160, fill=W, width=14)
    for x in (84, 128, 172):
        d.line([x, 170, x - 6 if x < 128 else x + 6 if x > 128 else x, 200], fill=W, width=10)


MARKS = {
    "stunned": ((214, 160, 30, 255), m_stunned),
    "prone": ((130, 110, 90, 255), m_prone),
    "unconscious": ((90, 90, 150, 255), m_unconscious),
    "dead": ((150, 30, 30, 255), m_dead),
    "fled": ((70, 120, 70, 255), m_fled),
    "surrendered": ((200, 200, 200, 255), m_surrendered),
    "crouching": ((60, 110, 160, 255), m_crouching),
    "surprised": ((220, 120, 30, 255), m_surprised),
    "immobilized": ((120, 60, 140, 255), m_immobilized),
    "incapacitated": ((110, 40, 40, 255), m_incapacitated),
    "broken": ((170, 120, 40, 255), m_broken),
    "steadfast": ((40, 130, 90, 255), m_steadfast),
    "concealed": ((50, 60, 70, 255), m_concealed),
    "grabbed": ((150, 70, 30, 255), m_grabbed),
}


def main():
    (OUT / "tiles").mkdir(parents=True, exist_ok=True)
    (OUT / "tokens").mkdir(parents=True, exist_ok=True)
    (OUT / "marks").mkdir(parents=True, exist_ok=True)
    terrain_atlas().save(OUT / "tiles" / "terrain.png")
    disc().save(OUT / "tokens" / "disc.png")
    ring().save(OUT / "tokens" / "ring.png")
    for name, f in ICONS.items():
        icon(f).save(OUT / "tokens" / f"{name}.png")
    for name, (bg, f) in MARKS.items():
        mark(bg, f).save(OUT / "marks" / f"{name}.png")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
