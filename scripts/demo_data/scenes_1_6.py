"""Scenes 1-6: their painters (pixels only) and their layouts and detections."""

from __future__ import annotations

import random

import numpy as np
from PIL import Image, ImageDraw

from .detections import hit, part, span, swallow, tuned
from .drawing import DARK, SHADOW, WHITE, add_noise, fill_poly, gradient, panel, speckle
from .geometry import Frame
from .model import Scene, Style, along, rword, word
from .text import COND_B, OBLIQUE, SANS, SANS_B, SERIF_B, SERIF_I


def paint_1(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (236, 222, 196), (196, 176, 146))
    d = ImageDraw.Draw(img)
    for i, x in enumerate(range(0, size[0], 50)):
        fill = (185, 40, 45) if i % 2 == 0 else (245, 240, 235)
        d.rectangle((x, 0, x + 50, 80), fill=fill)
        d.ellipse((x, 62, x + 50, 98), fill=fill)
    panel(img, (200, 105, 600, 205), (90, 55, 30), (60, 35, 20), 5, 12)
    for box in ((40, 240, 370, 410), (430, 240, 760, 410)):
        panel(img, box, (120, 150, 170), (55, 55, 60), 7, 4)
        d.line((box[0] + 30, box[3] - 10, box[0] + 120, box[1] + 10), (170, 195, 210), 4)
    d.rectangle((0, 540, size[0], size[1]), fill=(120, 118, 115))
    panel(img, (300, 430, 500, 580), (40, 70, 52), (120, 85, 45), 8, 3)
    return add_noise(img, nrng, 3)


def scene_1(rng: random.Random) -> Scene:
    cream, chalk = Style(SERIF_I, (245, 225, 170), SHADOW), Style(SANS, (235, 235, 225))
    glass = Style(SANS_B, WHITE, (40, 60, 80))
    ws = [
        word("Coffee", 260, 120, 280, 70, cream),
        word("FRESH", 90, 268, 200, 52, glass),
        word("BAKERY", 468, 268, 250, 52, glass),
        word("pastries", 100, 345, 140, 26, Style(SANS, WHITE)),
        word("sandwiches", 490, 345, 170, 26, Style(SANS, WHITE)),
        word("Latte", 345, 450, 110, 36, chalk),
        word("Mocha", 345, 505, 110, 36, chalk),
    ]
    a = [hit(ws[0], rng, "COFFEE", case="case_only")] + [hit(w, rng) for w in ws[1:4]]
    a += [hit(ws[4], rng, "sandwichcs"), hit(ws[5], rng), hit(ws[6], rng)]
    b = [span([ws[0]], rng, "Coffee", "loose", 6), hit(ws[1], rng, j=2, lo=0.6)]
    b += [hit(ws[2], rng, "BAKFRY", 2, 0.6), hit(ws[5], rng, "Latte", 2, 0.6)]
    b += [hit(ws[6], rng, "Mocha", 2, 0.6)]
    return Scene(
        1,
        size=(800, 600),
        paint=paint_1,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Cafe front: serif sign, window lettering, chalkboard, small text",
    )


def paint_2(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (110, 165, 230), (205, 225, 245))
    d = ImageDraw.Draw(img)
    for x, h in ((0, 200), (120, 150), (600, 230), (700, 170)):
        d.rectangle((x, size[1] - h, x + 110, size[1]), fill=(95, 100, 110))
    d.rectangle((0, 540, size[0], size[1]), fill=(80, 80, 85))
    d.rectangle((284, 190, 296, 560), fill=(110, 110, 115))
    d.rectangle((554, 400, 566, 560), fill=(110, 110, 115))
    plate1, plate2 = Frame(290, 190, 390, 90, 12), Frame(560, 400, 300, 80, -20)
    fill_poly(
        img,
        [plate1.point(u, v) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))],
        (20, 110, 60),
        WHITE,
        4,
    )
    fill_poly(
        img,
        [plate2.point(u, v) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))],
        (30, 70, 160),
        WHITE,
        4,
    )
    panel(img, (70, 425, 310, 505), (15, 15, 15), WHITE, 3, 4)
    return add_noise(img, nrng, 3)


def scene_2(rng: random.Random) -> Scene:
    plate1, plate2 = Frame(290, 190, 390, 90, 12), Frame(560, 400, 300, 80, -20)
    st = Style(SANS_B, WHITE)
    ws = [
        rword("ELM", along(plate1, -118, 90, 50), st),
        rword("AVENUE", along(plate1, 52, 210, 50), st),
        rword("PARKING", along(plate2, 0, 240, 50), st),
        word("ONE", 90, 445, 90, 40, st),
        word("WAY", 200, 445, 95, 40, st),
    ]
    a = [hit(ws[0], rng, j=2, case="rotated"), hit(ws[1], rng, j=2, case="rotated")]
    a += [hit(ws[2], rng, "PARKlNG", 2, case="rotated"), hit(ws[3], rng), hit(ws[4], rng)]
    b = [span([w], rng, w.text, "rotated_aabb", 1) for w in ws[:3]]
    b += [hit(ws[3], rng, j=2, lo=0.6), hit(ws[4], rng, "WAV", 2, 0.6)]
    return Scene(
        2,
        size=(800, 600),
        paint=paint_2,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Street signs tilted +12 deg and -20 deg, plus a level sign",
    )


def paint_3(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (225, 228, 230), (185, 188, 192))
    panel(img, (40, 50, 600, 190), (0, 135, 70), (0, 90, 45), 5, 14)
    d = ImageDraw.Draw(img)
    d.rectangle((85, 80, 115, 160), fill=WHITE)
    d.rectangle((60, 105, 140, 135), fill=WHITE)
    panel(img, (60, 235, 600, 440), (215, 235, 225), (90, 95, 100), 6, 4)
    speckle(img, nrng, (300, 380, 590, 430), [(150, 170, 160), (190, 205, 200)], 120)
    return add_noise(img, nrng, 3)


def scene_3(rng: random.Random) -> Scene:
    green, dark = Style(SANS_B, (0, 110, 55)), Style(SANS, (40, 50, 45))
    ws = [
        word("PHARMACY", 160, 85, 410, 70, Style(SANS_B, WHITE, (0, 70, 35))),
        word("Health", 90, 262, 150, 44, green),
        word("Beauty", 90, 322, 150, 44, green),
        word("Prescriptions", 330, 272, 240, 30, dark),
        word("Vitamins", 330, 325, 170, 30, dark),
    ]
    a = [tuned(ws[0], rng, 0.52, "near_pass")] + [hit(w, rng) for w in ws[1:]]
    b = [tuned(ws[0], rng, 0.48, "near_fail"), hit(ws[1], rng, "Hea1th", 2, 0.6)]
    b += [hit(ws[2], rng, j=2, lo=0.6), hit(ws[4], rng, "Vitamlns", 2, 0.5)]
    return Scene(
        3,
        size=(640, 480),
        paint=paint_3,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Pharmacy sign: one big clear word for the IoU 0.5 threshold",
    )


def paint_4(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (95, 45, 40), (60, 30, 28))
    panel(img, (180, 40, 844, 180), (15, 15, 15), (200, 160, 60), 4, 6)
    panel(img, (120, 200, 830, 300), (125, 82, 42), (80, 50, 25), 5, 6)
    panel(img, (90, 370, 300, 610), (45, 50, 55), (140, 100, 60), 8, 4)
    panel(img, (520, 360, 940, 620), (70, 90, 105), (30, 30, 30), 8, 2)
    d = ImageDraw.Draw(img)
    d.line((560, 600, 700, 380), (110, 130, 145), 6)
    d.rectangle((0, 680, size[0], size[1]), fill=(90, 88, 85))
    return add_noise(img, nrng, 3)


def scene_4(rng: random.Random) -> Scene:
    cream, chalk = Style(SERIF_B, (245, 230, 200), SHADOW), Style(SANS, (235, 235, 230))
    ws = [
        word("RESTAURANT", 212, 60, 600, 100, Style(SERIF_B, (230, 190, 80))),
        word("BURGER", 150, 220, 220, 60, cream),
        word("GRILL", 395, 220, 180, 60, cream),
        word("HOUSE", 600, 220, 200, 60, cream),
        word("Steak", 120, 400, 110, 30, chalk),
        word("Salad", 120, 450, 110, 30, chalk),
        word("Fries", 120, 500, 100, 30, chalk),
        word("Soup", 120, 550, 90, 30, chalk),
        word("Takeaway", 560, 430, 300, 56, Style(OBLIQUE, WHITE)),
    ]
    a = [part(ws[0], rng, 0.0, 0.70, "RESTAUR", "crop")]
    a += [hit(w, rng) for w in ws[1:]]
    b = [part(ws[0], rng, 0.0, 0.72, "RESTAURA", "crop")]
    b += [swallow(ws[1], ws[2], 0.4, rng, "BURGER GR")]
    b += [hit(ws[3], rng, j=2, lo=0.6), hit(ws[4], rng, j=2, lo=0.5)]
    b += [hit(ws[5], rng, "Sa1ad", 2, 0.5), hit(ws[8], rng, "Takeawav", 2, 0.5)]
    return Scene(
        4,
        size=(1024, 768),
        paint=paint_4,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Restaurant front: big sign, a 3-word line, small menu text",
    )


def paint_5(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (240, 240, 236), (210, 212, 208))
    panel(img, (50, 40, 750, 170), (200, 30, 35), (140, 20, 25), 5, 10)
    panel(img, (90, 310, 450, 420), (250, 215, 40), (200, 160, 20), 4, 18)
    ImageDraw.Draw(img).ellipse((105, 355, 117, 367), fill=(240, 240, 236))
    panel(img, (450, 320, 760, 560), (30, 120, 70), (20, 80, 45), 5, 6)
    d = ImageDraw.Draw(img)
    for y in (460, 530):
        d.rectangle((60, y, 420, y + 10), fill=(150, 150, 155))
    return add_noise(img, nrng, 3)


def scene_5(rng: random.Random) -> Scene:
    white = Style(SANS_B, WHITE)
    ws = [
        word("SUPERMARKET", 80, 60, 640, 90, Style(COND_B, WHITE, (110, 15, 20))),
        word("WELCOME", 230, 200, 340, 70, Style(SANS_B, (25, 50, 120))),
        word("DISCOUNT", 130, 330, 300, 64, Style(SANS_B, (200, 30, 35))),
        word("Fruit", 480, 340, 130, 48, white),
        word("Bread", 480, 410, 140, 48, white),
        word("Dairy", 480, 480, 130, 48, white),
    ]
    a = [hit(ws[0], rng), hit(ws[1], rng)]
    a += [part(ws[2], rng, 0.0, 0.5, "DISC", "split2")]
    a += [part(ws[2], rng, 0.51, 1.0, "OUNT", "split2")]
    a += [hit(w, rng) for w in ws[3:]]
    b = [part(ws[0], rng, 0.0, 0.36, "SUPE", "split3")]
    b += [part(ws[0], rng, 0.37, 0.68, "RMAR", "split3")]
    b += [part(ws[0], rng, 0.69, 1.0, "KET", "split3")]
    b += [part(ws[1], rng, 0.0, 0.56, "WELC", "overlap_split")]
    b += [part(ws[1], rng, 0.44, 1.0, "COME", "overlap_split")]
    b += [hit(ws[2], rng, j=2, lo=0.6), hit(ws[3], rng, j=2, lo=0.6)]
    b += [hit(ws[4], rng, "Brcad", 2, 0.5)]
    return Scene(
        5,
        size=(800, 600),
        paint=paint_5,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Supermarket banner and price tag: long words that get split",
    )


def paint_6(size: tuple[int, int], nrng: np.random.Generator) -> Image.Image:
    img = gradient(size, (170, 180, 190), (120, 125, 130))
    d = ImageDraw.Draw(img)
    d.rectangle((300, 360, 318, size[1]), fill=(90, 90, 95))
    panel(img, (120, 60, 500, 360), (25, 75, 165), WHITE, 5, 10)
    panel(img, (540, 70, 700, 230), (250, 205, 40), DARK, 4, 8)
    d.rectangle((612, 230, 628, size[1]), fill=(90, 90, 95))
    d.rectangle((0, 520, size[0], size[1]), fill=(70, 70, 75))
    speckle(img, nrng, (0, 520, size[0], size[1]), [(95, 95, 100), (55, 55, 60)], 500)
    return add_noise(img, nrng, 3)


def scene_6(rng: random.Random) -> Scene:
    white, dark = Style(SANS_B, WHITE), Style(SANS_B, DARK)
    ws = [
        word("BUS", 150, 80, 130, 64, white),
        word("STOP", 300, 80, 170, 64, white),
        word("CITY", 150, 200, 120, 44, white),
        word("CENTRE", 285, 200, 190, 44, white),
        word("Airport", 150, 290, 140, 40, Style(SANS, WHITE)),
        word("Route", 560, 90, 120, 36, dark),
        word("42", 580, 140, 80, 64, dark),
    ]
    a = [hit(w, rng) for w in ws[:3]] + [hit(ws[3], rng, "CENTRF")]
    a += [hit(w, rng) for w in ws[4:]]
    b = [span(ws[0:2], rng, "BUSSTOP", "merge")]
    b += [hit(ws[2], rng, j=2, lo=0.6), hit(ws[3], rng, j=2, lo=0.6)]
    b += [hit(ws[5], rng, "Raute", 2, 0.5), hit(ws[6], rng, j=2, lo=0.5)]
    return Scene(
        6,
        size=(800, 600),
        paint=paint_6,
        words=ws,
        det_a=a,
        det_b=b,
        shows="Bus stop sign: two-word lines and a route number",
    )
