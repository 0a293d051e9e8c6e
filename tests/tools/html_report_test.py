#!/usr/bin/env python3
"""The HTML game report of `arbiter analyse --pgn FILE --html OUT.html`, checked for its
structure and rendered by a real browser (Debian's headless Chromium).

usage: html_report_test.py path/to/arbiter path/to/tests/data

Two games are reviewed: a real one (tests/data/engine-game-review.pgn, Arbiter against
Stockfish 15.1 from the shared engine games) and a hand-written one with blunders
(tests/data/hand-blunder.pgn). For each page: one section per game; every move the
annotated PGN marks ($6, $2, $4) is marked in the move list, links to a diagram, and the
diagram shows the position before it with its pieces and two arrows; every SVG parses as
XML; nothing refers outside the page (no script, no link, no src, no url()). Then Chromium
renders the page to a PNG, which must be a real image of the requested size with more
than one colour in it. Set ARBITER_HTML_SCREENSHOTS=DIR to keep the pages and the PNGs.

Without Chromium the structure is still checked, then the test exits 77 (CTest's skip)
saying that the browser is missing. Prints one line per failure and `N passed, M failed`.
"""
import html.parser
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uci"))
from uci_pipe import check, run_tests  # noqa: E402

TIMEOUT = 180
BINARY = DATA = OUT = None
GAMES = ("engine-game-review.pgn", "hand-blunder.pgn")
WIDTH, HEIGHT = 1200, 2000
PIECE_LETTERS = set("pnbrqkPNBRQK")


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Page(html.parser.HTMLParser):
    """What the tests read from a page: sections, marked moves, diagrams, SVG sources."""

    def __init__(self):
        super().__init__()
        self.sections, self.marked, self.figures, self.refs = [], [], {}, []
        self.figure = None  # the figure being read
        self.tags = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        for name in ("src", "href"):
            if name in a and not a[name].startswith("#"):
                self.refs.append(f"{tag} {name}={a[name]}")
        classes = a.get("class", "").split()
        if tag == "section" and "game" in classes:
            self.sections.append(a.get("id"))
        if tag == "a" and "move" in classes:
            marks = [c for c in classes if c in ("inaccuracy", "mistake", "blunder")]
            self.marked.append((marks[0] if marks else None, a.get("href"), a.get("id")))
        if tag == "figure" and "diagram" in classes:
            self.figure = {"classes": classes, "fen": a.get("data-fen"), "ply": a.get("data-ply"), "svgs": 0,
                           "pieces": 0, "squares": 0, "arrows": 0}
            self.figures[a.get("id")] = self.figure
        if self.figure is not None:
            if tag == "svg":
                self.figure["svgs"] += 1
            elif tag == "rect":
                self.figure["squares"] += 1
            elif tag == "text" and "piece" in classes:
                self.figure["pieces"] += 1
            elif tag == "polygon" and "arrow" in classes:
                self.figure["arrows"] += 1

    def handle_endtag(self, tag):
        if tag == "figure":
            self.figure = None


def png_facts(path):
    """Width, height and the number of distinct pixel byte values of a PNG (stdlib only)."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    pos, width, height, idat = 8, 0, 0, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    pixels = zlib.decompress(idat)
    return width, height, len(set(pixels[: 1 << 20]))


def review(name, tmp):
    page = os.path.join(tmp, name.replace(".pgn", ".html"))
    result = subprocess.run([BINARY, "analyse", "--pgn", os.path.join(DATA, name), "--depth", "8", "--html", page],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
    check(result.returncode == 0, f"{name}: exit {result.returncode}: {result.stderr[-400:]!r}")
    check(f"Game report written to {page}" in result.stderr, f"{name}: {result.stderr[-300:]!r}")
    return page, result.stdout


def check_structure(name, page, pgn):
    text = open(page, encoding="utf-8").read()
    check(text.startswith("<!DOCTYPE html>"), f"{name}: no doctype")
    parser = Page()
    parser.feed(text)
    check(len(parser.sections) == pgn.count("[Event "), f"{name}: {len(parser.sections)} game sections")
    # Self-contained: nothing to fetch, nothing to run.
    check("script" not in parser.tags and "link" not in parser.tags and "img" not in parser.tags,
          f"{name}: tags {sorted(set(parser.tags))}")
    check(not parser.refs, f"{name}: references outside the page: {parser.refs[:5]}")
    check("url(" not in text and "@import" not in text, f"{name}: a CSS reference")
    # Every mark of the annotated PGN is in the move list, and every mark has its diagram.
    nags = re.findall(r"\$(2|4|6)\b", pgn)
    check(len(nags) > 0, f"{name}: the review marked no move")
    check(len(parser.marked) == len(nags), f"{name}: {len(parser.marked)} marked moves, {len(nags)} NAGs")
    wanted = {"6": "inaccuracy", "2": "mistake", "4": "blunder"}
    check(sorted(m[0] for m in parser.marked) == sorted(wanted[n] for n in nags), f"{name}: marks differ")
    check(len(parser.figures) == len(parser.marked), f"{name}: {len(parser.figures)} diagrams")
    for mark, href, own_id in parser.marked:
        figure = parser.figures.get((href or "#")[1:])
        check(figure is not None, f"{name}: {own_id} links to {href}, no such diagram")
        check(mark in figure["classes"], f"{name}: {href} is not marked {mark}")
        check(figure["svgs"] == 1 and figure["squares"] == 64, f"{name}: {href}: {figure}")
        board = figure["fen"].split()[0]
        check(figure["pieces"] == sum(c in PIECE_LETTERS for c in board),
              f"{name}: {href}: {figure['pieces']} pieces drawn for {board}")
        check(figure["arrows"] == 2, f"{name}: {href}: {figure['arrows']} arrows (the move played and the best)")
    # Every SVG (the graph and each board) is well-formed XML on its own.
    svgs = re.findall(r"<svg\b.*?</svg>", text, flags=re.S)
    check(len(svgs) == len(parser.sections) + len(parser.figures), f"{name}: {len(svgs)} SVG elements")
    for svg in svgs:
        try:
            root = ET.fromstring(svg)
        except ET.ParseError as error:
            raise AssertionError(f"{name}: an SVG does not parse: {error}: {svg[:200]}")
        check(root.tag == "{http://www.w3.org/2000/svg}svg", f"{name}: root {root.tag}")
    return text


def render(page, png):
    profile = tempfile.mkdtemp(prefix="arbiter-chromium-")
    try:
        result = subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             f"--screenshot={png}", f"--window-size={WIDTH},{HEIGHT}", "file://" + os.path.abspath(page)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    check(os.path.exists(png), f"Chromium wrote no screenshot (exit {result.returncode}): {result.stderr[-600:]!r}")
    width, height, values = png_facts(png)
    check((width, height) == (WIDTH, HEIGHT), f"{png}: {width}x{height}")
    check(values > 16, f"{png}: a blank page ({values} distinct byte values)")


def test_pages_and_screenshots():
    keep = os.environ.get("ARBITER_HTML_SCREENSHOTS")
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or tmp
        os.makedirs(folder, exist_ok=True)
        for name in GAMES:
            page, pgn = review(name, folder)
            check_structure(name, page, pgn)
            if chromium():
                render(page, page.replace(".html", ".png"))


def test_unwritable_page():
    result = subprocess.run([BINARY, "analyse", "--pgn", os.path.join(DATA, GAMES[1]), "--depth", "2", "--html",
                             "/nonexistent/report.html"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT)
    check(result.returncode == 2 and not result.stdout, f"exit {result.returncode}, stdout {result.stdout[:100]!r}")
    check("cannot write '/nonexistent/report.html': No such file or directory" in result.stderr, result.stderr)


TESTS = [v for k, v in sorted(globals().items()) if k.startswith("test_")]


def main():
    global BINARY, DATA
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    BINARY = os.path.abspath(sys.argv[1])
    DATA = os.path.abspath(sys.argv[2])
    status = run_tests(TESTS)
    if status == 0 and not chromium():
        print("skipped: chromium is not installed (apt-get install chromium; scripts/test.sh installs it): "
              "the pages' structure was checked, not their rendering")
        return 77
    return status


if __name__ == "__main__":
    sys.exit(main())
