"""Scenes 7-12: their painters (pixels only) and their layouts and detections."""

from __future__ import annotations

import random

import numpy as np
from PIL import Image, ImageDraw

from .detections import conf, false_pos, hit, span
from .drawing import DARK, SHADOW, WHITE, add_noise, bricks, gradient, panel, speckle
from .geometry import Arc, Frame, box_frame
from .model import Det, Scene, Style, Word, rword, word
from .text import OBLIQUE, SANS, SANS_B, SERIF_B, SERIF_I


def paint_7(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (40, 110, 115), (25, 80, 85))
    panel(img, (140, 25, 500, 125), (20, 25, 30), (200, 200, 190), 3, 6)
    d = ImageDraw.Draw(img)
    d.line((230, 125, 230, 178), (60, 60, 60), 3)
    d.line((410, 125, 410, 178), (60, 60, 60), 3)
    panel(img, (200, 175, 440, 345), (150, 100, 55), (95, 60, 30), 5, 8)
    for y in range(185, 340, 9):
        d.line((210, y, 430, y + 3), (140, 92, 50), 2)
    panel(img, (500, 180, 630, 330), (70, 95, 110), (20, 30, 35), 5, 2)
    speckle(img, nrng, (505, 185, 625, 325), [(120, 140, 150), (40, 55, 65)], 90, 2)
    d.rectangle((0, 385, size[0], size[1]), fill=(110, 80, 50))
    return add_noise(img, nrng, 3)


def scene_7(rng: random.Random) -> Scene:
    sign = Style(SANS_B, (250, 245, 225), (70, 40, 15))
    shelf = Style(SANS, (245, 235, 210))
    ws = [
        word("Bookshop", 170, 40, 300, 70, Style(SERIF_I, WHITE)),
        word("OPEN", 240, 190, 160, 64, sign),
        word("DAILY", 240, 262, 160, 64, sign),
        word("Books", 60, 405, 110, 34, shelf),
        word("Maps", 470, 405, 100, 34, shelf),
    ]
    a = [hit(w, rng) for w in ws]
    b = [hit(ws[0], rng, "Bookshup", 2, 0.6), span(ws[1:3], rng, "OPEN DAILY", "multiline")]
    b += [hit(ws[4], rng, j=2, lo=0.5), false_pos(520, 230, 90, 34, rng, "MIL")]
    return Scene(
        7,
        size=(640, 480),
        paint=paint_7,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Bookshop with a hanging two-line OPEN / DAILY board",
    )


def paint_8(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (70, 30, 110), (230, 120, 60))
    d = ImageDraw.Draw(img)
    d.ellipse((242, 110, 782, 650), fill=(45, 20, 80), outline=(250, 200, 90), width=6)
    speckle(img, nrng, (0, 0, size[0], 100), [(255, 240, 200), (255, 255, 255)], 60, 2)
    for x in range(0, size[0], 90):
        d.polygon([(x, 768), (x + 45, 700), (x + 90, 768)], fill=(40, 15, 60))
    return add_noise(img, nrng, 3)


def scene_8(rng: random.Random) -> Scene:
    arc = Arc(512, 380, 215, 64, -58, 58)
    ws = [
        Word("FESTIVAL", Style(SANS_B, (250, 200, 90)), arc=arc, kind="arc"),
        word("MUSIC", 332, 420, 360, 100, Style(SANS_B, (255, 240, 120), SHADOW)),
        word("TICKETS", 430, 580, 164, 36, Style(SANS_B, WHITE)),
        word("Stage", 80, 640, 120, 40, Style(SERIF_I, WHITE)),
        word("Tonight", 820, 640, 150, 40, Style(SERIF_I, WHITE)),
    ]
    a_arc = Arc(512, 381, 216, 66, -59, 57)
    a = [Det(a_arc.polygon(), conf(rng, 0.8, 0.95), "FESTIVAL", "curved_poly")]
    a += [hit(w, rng) for w in ws[1:4]] + [hit(ws[4], rng, "Tonlght")]
    b = [span(ws[:1], rng, "FESTIVAL", "curved_box", 6)]
    b += [hit(ws[1], rng, "MUS1C", 2, 0.6), hit(ws[2], rng, j=2, lo=0.5)]
    return Scene(
        8,
        size=(1024, 768),
        paint=paint_8,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Festival poster: FESTIVAL curved along a circle (polygon GT)",
    )


def paint_9(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (225, 205, 170), (190, 165, 130))
    panel(img, (40, 50, 120, 430), (170, 25, 35), (240, 200, 90), 4, 6)
    panel(img, (150, 45, 620, 185), (30, 30, 40), (200, 170, 80), 4, 4)
    d = ImageDraw.Draw(img)
    for x in (170, 280):
        d.rectangle((x, 220, x + 80, 330), fill=(80, 100, 120), outline=(60, 45, 30), width=5)
    d.rectangle((180, 350, 300, size[1]), fill=(90, 60, 35))
    panel(img, (388, 322, 520, 398), (190, 160, 80), (120, 95, 40), 3, 3)
    speckle(img, nrng, (540, 220, 630, 460), [(200, 180, 140), (170, 150, 115)], 150, 2)
    return add_noise(img, nrng, 3)


def scene_9(rng: random.Random) -> Scene:
    small = Style(SANS, (40, 30, 20))
    ws = [
        Word("HOTEL", Style(SANS_B, WHITE), frame=box_frame(55, 70, 50, 340), kind="vertical"),
        word("GRAND", 170, 60, 430, 110, Style(SERIF_B, (235, 200, 100))),
        word("reception", 398, 330, 100, 16, small),
        word("wifi", 398, 352, 44, 16, small),
        word("parking", 398, 374, 80, 16, small),
    ]
    a = [hit(ws[0], rng, case="vertical"), hit(ws[1], rng)]
    a += [hit(ws[2], rng, lo=0.6), hit(ws[3], rng, lo=0.6)]
    b = [span(ws[:1], rng, "H0TEL", "vertical", 5), hit(ws[1], rng, j=2, lo=0.7)]
    return Scene(
        9,
        size=(640, 480),
        paint=paint_9,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Hotel: vertical stacked HOTEL, very large GRAND, tiny plaque text",
    )


def paint_10(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (150, 160, 150), (110, 120, 112))
    speckle(img, nrng, (0, 0, 80, size[1]), [(120, 130, 120), (180, 185, 178)], 250, 3)
    speckle(img, nrng, (720, 0, size[0], size[1]), [(120, 130, 120), (180, 185, 178)], 250, 3)
    panel(img, (80, 30, 720, 570), (248, 246, 236), (200, 195, 185), 2, 2)
    d = ImageDraw.Draw(img)
    d.line((110, 315, 690, 315), (200, 40, 40), 2)
    d.ellipse((392, 38, 408, 54), fill=(200, 40, 40))
    return add_noise(img, nrng, 3)


def scene_10(rng: random.Random) -> Scene:
    ink = Style(SANS, (40, 40, 45))
    ws = [
        word("NOTICE", 250, 60, 300, 70, Style(SANS_B, (200, 35, 35))),
        Word(
            "the shop will be/closed for repairs/until further notice",
            ink,
            frame=box_frame(120, 160, 560, 130),
            kind="blur",
        ),
        word("Closed", 130, 340, 200, 60, Style(SANS_B, DARK)),
        word("Sunday", 360, 340, 240, 74, Style(SANS_B, DARK)),
        word("Thanks", 300, 470, 200, 48, Style(SERIF_I, (40, 60, 120))),
    ]
    a = [
        hit(ws[0], rng),
        Det(box_frame(150, 182, 230, 30).quad(), conf(rng, 0.3, 0.5), "shap", "dontcare"),
    ]
    a += [hit(w, rng) for w in ws[2:]]
    b = [hit(ws[0], rng, "NOTlCE", 2, 0.6)]
    b += [Det(box_frame(100, 250, 300, 40).quad(), conf(rng, 0.3, 0.5), "until", "dontcare")]
    b += [Det(box_frame(420, 200, 200, 36).quad(), conf(rng, 0.3, 0.5), "repairs", "dontcare")]
    b += [hit(ws[2], rng, "CIosed", 2, 0.6), false_pos(10, 380, 60, 110, rng, "III")]
    return Scene(
        10,
        size=(800, 600),
        paint=paint_10,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Paper notice with an illegible blurred paragraph (### region)",
    )


def paint_11(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (150, 70, 50), (120, 55, 40))
    bricks(img, nrng, (0, 0, size[0], 580), (160, 70, 50))
    d = ImageDraw.Draw(img)
    d.rectangle((700, 60, 950, 300), fill=(35, 45, 55), outline=(220, 220, 215), width=8)
    d.line((825, 60, 825, 300), (220, 220, 215), 6)
    d.rectangle((0, 580, size[0], size[1]), fill=(85, 85, 88))
    panel(img, (60, 600, 290, 680), (30, 30, 30), (180, 180, 180), 3, 4)
    panel(img, (795, 600, 1005, 680), (30, 30, 30), (180, 180, 180), 3, 4)
    return add_noise(img, nrng, 2)


def scene_11(rng: random.Random) -> Scene:
    plaque = Style(SANS, WHITE)
    ws = [
        rword("ART", Frame(330, 300, 330, 150, -10), Style(SANS_B, (40, 200, 230), SHADOW)),
        rword("ZONE", Frame(720, 450, 280, 100, 6), Style(OBLIQUE, (250, 230, 60), SHADOW)),
        word("Gallery", 95, 620, 160, 40, plaque),
        word("Entrance", 815, 620, 170, 40, plaque),
    ]
    a = [hit(ws[0], rng, j=2, case="rotated"), hit(ws[1], rng, j=2, case="rotated")]
    a += [hit(ws[2], rng), hit(ws[3], rng)]
    a += [false_pos(30, 40, 130, 50, rng, "mm")]
    b = [span(ws[:1], rng, "ART", "rotated_aabb", 3), hit(ws[2], rng, j=2, lo=0.5)]
    b += [hit(ws[3], rng, j=2, lo=0.5), false_pos(720, 80, 90, 60, rng, "EE")]
    b += [false_pos(480, 110, 150, 40, rng, "mmm"), false_pos(40, 440, 120, 50, rng, "IIII")]
    return Scene(
        11,
        size=(1024, 768),
        paint=paint_11,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Brick wall with tilted graffiti: texture that causes false positives",
    )


def paint_12(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (170, 125, 80), (150, 105, 65))
    speckle(img, nrng, (0, 0, size[0], size[1]), [(120, 85, 50), (195, 150, 100)], 1500, 2)
    notes = (
        ((60, 60, 330, 260), (252, 252, 248)),
        ((380, 60, 740, 230), (250, 240, 150)),
        ((100, 320, 420, 560), (190, 215, 240)),
        ((470, 300, 740, 520), (245, 200, 210)),
    )
    d = ImageDraw.Draw(img)
    for box, color in notes:
        d.rectangle((box[0] + 5, box[1] + 5, box[2] + 5, box[3] + 5), fill=(100, 70, 40))
        d.rectangle(box, fill=color)
        cx = box[0] + 16
        d.ellipse((cx - 7, box[1] + 4, cx + 7, box[1] + 18), fill=(200, 30, 30))
    return add_noise(img, nrng, 3)


def scene_12(rng: random.Random) -> Scene:
    pen, marker = Style(SANS, (30, 30, 60)), Style(SANS_B, (20, 20, 20))
    ws = [
        word("ROOM", 80, 85, 120, 40, marker),
        word("FOR", 215, 85, 90, 40, marker),
        word("RENT", 80, 135, 130, 40, marker),
        word("Quiet", 80, 195, 90, 26, pen),
        word("area", 180, 197, 70, 22, pen),
        word("Guitar", 400, 85, 150, 46, Style(SERIF_I, (90, 40, 10))),
        word("lessons", 400, 145, 170, 40, Style(SERIF_I, (90, 40, 10))),
        word("weekly", 585, 152, 130, 32, pen),
        word("LOST", 130, 340, 150, 60, Style(SANS_B, (180, 20, 20))),
        word("CAT", 300, 340, 100, 60, Style(SANS_B, (180, 20, 20))),
        word("reward", 130, 420, 120, 30, pen),
        Word("555 0199", pen, frame=box_frame(130, 470, 220, 36), kind="blur"),
        word("Yoga", 500, 320, 140, 50, Style(SANS_B, (110, 20, 80))),
        word("class", 500, 390, 120, 40, pen),
        word("Friday", 500, 450, 140, 44, pen),
    ]
    a = [hit(ws[0], rng, j=0)] + [hit(w, rng) for w in ws[1:4]]
    a += [hit(ws[5], rng), hit(ws[6], rng, "lessans")]
    a += [hit(w, rng) for w in ws[7:11]] + [hit(w, rng) for w in ws[12:]]
    keep_b = (0, 1, 2, 5, 6, 8, 9, 12, 14)
    b = [hit(ws[k], rng, j=2, lo=0.45) for k in keep_b[:-1]]
    b += [hit(ws[14], rng, "Fridav", 2, 0.45)]
    return Scene(
        12,
        size=(800, 600),
        paint=paint_12,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Cork notice board: 15 boxes, many small words, blurred phone no.",
    )
