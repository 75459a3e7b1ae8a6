"""The balance report in a real browser: headless Chromium (Debian's `chromium` package; .ci/run installs it), as
the card gallery is checked (tests/test_gallery_browser.py).

`--dump-dom` gives the page as Chromium parsed it: every chart must be there as inline SVG with its title, axes,
error bars for the win rates, and the designer's cards and corporation labelled in the highlight colour, and the
numbers under the charts must be the results' numbers. `--screenshot` of the whole page must show each chart drawn:
the bars, the highlighted rows of the designer and the lines of the score distribution, section by section.
Skipped when chromium or matplotlib (the `report` extra) is not installed.
"""

import csv
import re
from html.parser import HTMLParser

import pytest
from headless import chromium, needs_chromium
from report_runs import DESIGNER_NAMES, designer_folder, simulate_args

from tharsis.cli import main
from tharsis.games import report

pytestmark = [needs_chromium,
              pytest.mark.skipif(not report.available(), reason="the report extra: pip install 'tharsis[report]'")]

GAMES = 8
WIDTH = 1280
CHARTS = {   # section id -> the titles and axis labels its chart must show
    "seats": ["Win rate per seat (95% interval)", "games won, of 8"],
    "corporations": ["Win rate per corporation (95% interval)", "win rate of the players who played it"],
    "cards": ["Play rate", "Win rate when played", "VP per card", "Generation played", "share of the games",
              "its players who won (95% interval)", "mean VP at the end", "mean generation"],
    "scores": ["Final scores per seat", "final score (VP)", "games"],
    "generations": ["Game length (mean", "generations", "games"],
}
SECTIONS = ["yours", "seats", "corporations", "cards", "scores", "generations"]


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))



@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    folder = designer_folder(root)
    assert main(simulate_args(folder, GAMES) + ["--format", "csv", "--out", str(root / "results.csv"),
                                                 "--report", str(root / "site")]) == 0
    page = root / "site" / "index.html"
    with open(root / "results.cards.csv", encoding="utf-8", newline="") as handle:
        cards = list(csv.DictReader(handle))
    return {"page": page, "cards": cards, "dom": Page(chromium("--dump-dom", page.as_uri()).decode("utf-8"))}


class Page(HTMLParser):
    """What the tests read of the page: per section, its SVG charts, the texts drawn in them (with their style),
    the ids of the SVG groups, and the rows of its tables (`data-name` and cells)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.sections: dict[str, dict] = {}
        self._section = None
        self._text_style = None
        self._row = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self._section = self.sections.setdefault(attrs["id"], {"svgs": 0, "texts": [], "groups": set(),
                                                                   "rows": []})
        elif self._section is None:
            return
        elif tag == "svg":
            self._section["svgs"] += 1
        elif tag == "g" and "id" in attrs:
            self._section["groups"].add(attrs["id"])
        elif tag == "text":
            self._text_style = attrs.get("style", "")
            self._section["texts"].append([self._text_style, ""])
        elif tag == "tr" and "data-name" in attrs:
            self._row = {"name": attrs["data-name"], "classes": attrs.get("class", ""), "cells": []}
            self._section["rows"].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._row["cells"].append("")

    def handle_endtag(self, tag):
        if tag == "section":
            self._section = None
        elif tag == "text":
            self._text_style = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._text_style is not None:
            self._section["texts"][-1][1] += data
        elif self._row is not None and self._row["cells"]:
            self._row["cells"][-1] += data.strip()

    def texts(self, section: str) -> list[str]:
        return [text for _, text in self.sections[section]["texts"]]


def test_every_chart_is_inline_svg_with_its_title_and_axes(run):
    dom = run["dom"]
    assert list(dom.sections) == SECTIONS
    for section, labels in CHARTS.items():
        assert dom.sections[section]["svgs"] == 1, section
        texts = " | ".join(dom.texts(section))
        for label in labels:
            assert label in texts, f"{section}: {label!r} not in {texts[:300]}"


def test_win_rates_are_drawn_with_error_bars_one_per_row(run):
    page = run["page"].read_text(encoding="utf-8")
    dom = run["dom"]
    for section in ("seats", "corporations", "cards"):
        assert any(group.startswith(f"{section}-LineCollection") for group in dom.sections[section]["groups"])
    bars = re.search(r'<g id="seats-LineCollection_1">(.*?)</g>', page, re.S).group(1)
    assert bars.count("<path") == 2                                  # one interval per seat
    corporations = {row["name"] for row in dom.sections["corporations"]["rows"]}
    bars = re.search(r'<g id="corporations-LineCollection_1">(.*?)</g>', page, re.S).group(1)
    assert bars.count("<path") == len(corporations)


def test_the_designers_cards_and_corporation_are_highlighted_in_the_charts(run):
    dom = run["dom"]
    played = {row["card"] for row in run["cards"]}
    yours_played = played & DESIGNER_NAMES
    assert yours_played      # the fixture's designer cards are cheap: the bots play them
    highlighted = {text.rsplit(" (", 1)[0] for style, text in dom.sections["cards"]["texts"]
                   if report.YOURS in style}
    assert highlighted == yours_played
    labels = {text.rsplit(" (", 1)[0] for text in dom.texts("cards")}
    assert played <= labels                                            # every card played has its row
    corporations = {text.rsplit(" (", 1)[0] for style, text in dom.sections["corporations"]["texts"]
                    if report.YOURS in style}
    assert corporations == {"Dust & Sons"}


def test_the_numbers_under_the_charts_are_the_results_numbers(run):
    """The per-card table (and the designer's table) against the CSV the same run wrote."""
    plays: dict[str, list[bool]] = {}
    for row in run["cards"]:
        plays.setdefault(row["card"], []).append(row["won"] == "True")
    rows = {row["name"]: row["cells"] for row in run["dom"].sections["cards"]["rows"]}
    assert set(rows) == set(plays)
    for name, cells in rows.items():
        assert int(cells[1]) == len(plays[name]) and int(cells[3]) == sum(plays[name]), name
        assert cells[2] == f"{len(plays[name]) / GAMES:.1%}"
    yours = {row["name"]: row for row in run["dom"].sections["yours"]["rows"]}
    assert set(yours) == (set(plays) & DESIGNER_NAMES) | {"Dust & Sons"}
    assert all("yours" in row["classes"] for row in yours.values())
    assert yours["Dust & Sons"]["cells"][1] == str(GAMES)       # the fixed corporation: every game


def _pixels(png_path):
    image = pytest.importorskip("PIL.Image").open(png_path).convert("RGB")
    return image


def _near(image, colour: str, tolerance: int = 0) -> int:
    """How many pixels of `image` have this colour (each channel within `tolerance`)."""
    wanted = _hex(colour)
    return sum(count for count, pixel in image.getcolors(image.width * image.height)
               if all(abs(a - b) <= tolerance for a, b in zip(pixel, wanted)))


def test_the_screenshot_shows_every_chart_drawn(run, tmp_path):
    page = run["page"].read_text(encoding="utf-8")
    svg_height = sum(float(h) * 4 / 3 for h in re.findall(r'<svg [^>]*height="([\d.]+)pt"', page))
    height = int(svg_height) + 1600                  # the charts, and the headings, tables and margins around them
    shot = tmp_path / "report.png"
    chromium(f"--screenshot={shot}", f"--window-size={WIDTH},{height}", run["page"].as_uri())
    image = _pixels(shot)
    assert image.size == (WIDTH, height)
    # The sections are white cards on the page's background: their tops and bottoms down a column at their left.
    column = [image.getpixel((52, y)) for y in range(height)]
    spans, start = [], None
    for y, pixel in enumerate(column + [(0, 0, 0)]):
        if pixel == (255, 255, 255) and start is None:
            start = y
        elif pixel != (255, 255, 255) and start is not None:
            spans.append((start, y))
            start = None
    spans = [span for span in spans if span[1] - span[0] > 100]
    assert len(spans) == len(SECTIONS) and spans[-1][1] < height - 50     # all six, the whole page in the shot
    area = {name: image.crop((0, top, WIDTH, bottom)) for name, (top, bottom) in zip(SECTIONS, spans)}
    assert _near(area["yours"], report.YOURS_BAND) > 3000                # the designer's rows of the table
    assert _near(area["seats"], report.BUNDLED) > 3000                   # the seats' bars
    assert _near(area["seats"], report.ERROR_BARS, 8) > 400              # their intervals
    assert _near(area["corporations"], report.ERROR_BARS, 8) > 400
    assert _near(area["corporations"], report.YOURS) > 1000              # the designer's corporation's bar
    assert _near(area["corporations"], report.YOURS_BAND) > 3000         # and the band behind its row
    assert _near(area["cards"], report.BUNDLED) > 20000                  # every card's bars
    assert _near(area["cards"], report.YOURS) > 2000                     # the designer's cards' bars
    assert _near(area["cards"], report.YOURS_BAND) > 5000
    for colour in report.SEAT_COLOURS[:2]:                               # one distribution line per seat
        assert _near(area["scores"], colour) > 300
    assert _near(area["generations"], report.BUNDLED) > 5000             # the games per length
