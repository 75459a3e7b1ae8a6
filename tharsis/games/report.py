"""`tharsis simulate --report DIR`: the balance report, one self-contained HTML page of charts (DIR/index.html).

The numbers are tharsis/games/balance.py's, read from the same records as the results file. The charts are drawn by
matplotlib as SVG and put inline in the page (templates/report/index.html.j2), so the page needs no network, no
script and no image files: win rate with its 95 % interval (error bars) per seat, per corporation and for every
card played (with its play rate, VP per card and mean generation played beside it), and the distributions of
final scores and game lengths. The designer's own cards and corporations (from `--cards` folders) are drawn in
`YOURS` orange on a light band, the bundled ones in `BUNDLED` blue; under each chart its numbers are a table.

The records of a card-effect run (`simulate --effect`, tharsis/games/paired.py) get a section of their own first:
the effect of each tested card on its holder's win rate and VP, with the intervals corrected for the number of cards
(tharsis/games/effects.py), as a chart and a table; the sections after it are of the run's games without the tested
cards. Where the seats are played by different bots, the tables say which bots played each card and draw no verdict
("stronger than average") from a win rate when played, which would measure the bots as much as the card.

matplotlib is an optional extra (`pip install 'tharsis[report]'`): it is imported only here, only for `--report`,
and `--report` without it is a usage error (E762) before any game is played. The page is deterministic: the same
records give the same bytes (no date, SVG ids from a fixed salt, prefixed per chart so that the charts' clip paths
never collide in one document).
"""

from __future__ import annotations

import io
import math
import re
import tempfile
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Optional, Sequence

import jinja2
from markupsafe import Markup

from tharsis import __version__
from tharsis.compiler.source import on_disk, why_unusable
from tharsis.compiler.writing import replace_file
from tharsis.games.balance import Balance, CardBalance, Rate, Yours, balance
from tharsis.games.effects import Effects, effects, holders_text, interval_text, is_experiment
from tharsis.games.recorded_cards import relative_paths
from tharsis.problems import shorten, usage_error

INSTALL_HINT = "pip install 'tharsis[report]'"
PAGE = "index.html"

BUNDLED = "#1f5fa8"        # the bars of bundled cards, corporations and the seats
YOURS = "#e8590c"          # the designer's cards and corporations
YOURS_BAND = "#ffe8d6"     # the band behind a row of the designer's
AVERAGE = "#6b6558"        # the average player's win rate, a dashed line
ERROR_BARS = "#3b2412"    # a dark brown: reads as black, and is no colour of the text
WIDTH, WIDE = 9.0, 11.8   # inches: the charts are shown at their own size (1 pt = 1 CSS pt), or narrower
SEAT_COLOURS = ("#1f5fa8", "#b3261e", "#2e7d32", "#8d6e1f", "#8e3a8a")
STYLE = {
    "svg.fonttype": "none",        # text stays text: the browser draws it (any script a card name is in), and the
                                   # page can be searched and read by a screen reader or a test
    "svg.hashsalt": "tharsis",     # the same ids every time: the same records give the same page
    "font.family": "sans-serif",
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
}


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def require() -> None:
    """ProblemError E762 (exit 2) when matplotlib is missing: said before any game is played, not after them."""
    if not available():
        raise usage_error("E762", "the balance report needs matplotlib (its charts), which is not installed",
                          INSTALL_HINT)


def prepare(directory: str, force: bool, flag: str = "--report") -> Path:
    """The folder the report goes into, created and found writable before any game is played, or ProblemError
    (exit 2): E762 without matplotlib, E761 for a folder that cannot be used, E760 for one that holds a report
    already (unless `force`). `flag` is what named the folder (simulate --report, report --out)."""
    require()
    if not directory.strip():
        raise usage_error("E761", f"{flag} is empty: the report needs a folder to go into",
                          f"name a new or existing folder: {flag} report/")
    folder = Path(directory)
    look = on_disk(folder)
    if look.kind == "unusable":
        raise usage_error("E761", f"{flag} {shorten(directory)}: cannot use it: {look.reason}", look.hint)
    if look.kind not in ("missing", "folder"):
        raise usage_error("E761", f"{flag} {shorten(directory)}: the report goes into a folder, and this is a file",
                          f"name a new or existing folder: {flag} report/")
    page = folder / PAGE
    if on_disk(page).kind == "folder" or (on_disk(page).kind == "file" and not force):
        raise usage_error("E760", f"{flag} {shorten(directory)}: the folder already holds a report ({PAGE}), and a "
                                  "new run does not overwrite it", f"choose another {flag} DIR, or add --force to "
                                                                   "replace it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):   # the system's answer, not a guess from permission bits
            pass
    except (OSError, ValueError) as exc:
        reason, hint = why_unusable(exc)
        raise usage_error("E761", f"{flag} {shorten(directory)}: cannot write there: {reason}",
                          hint or "name a folder you can write to") from None
    return folder


def write(folder: Path, records: Sequence[dict], yours: Yours = Yours(), *, requested: int = 0) -> Path:
    """Write the report of `records` to folder/index.html (ProblemError E761 when the disk refuses it)."""
    page = folder / PAGE
    html = render(records, yours, requested=requested)
    try:
        replace_file(page, html)   # an earlier report stays whole until the new one is (compiler/writing.py)
    except OSError as exc:
        reason, hint = why_unusable(exc)
        kept = "; an earlier report there is as it was" if page.is_file() else ""
        raise usage_error("E761", f"cannot write the report to {shorten(str(page))}: {reason}{kept} (the results "
                                  "file holds every game)", hint) from None
    return page


def render(records: Sequence[dict], yours: Yours = Yours(), *, requested: int = 0) -> str:
    """The whole page as one HTML string, for one game or more (an interrupted run writes no report)."""
    if not records:
        raise ValueError("a balance report needs at least one game")
    measured, described = None, list(records)
    if is_experiment(records):
        measured = effects(records, frozenset(yours.cards))
        tested = frozenset(card.name for card in measured.cards)
        described = list(measured.baseline) or described
        yours = Yours(yours.cards - tested, yours.corporations, yours.outside - tested)
    numbers = balance(described, yours)
    first = records[0]
    charts = _charts(numbers, measured)
    return _environment().get_template("index.html.j2").render(
        b=numbers, charts=charts, version=__version__, requested=requested or len(records), played=len(records),
        effects=measured, holders=holders_text(measured) if measured else "", interval_text=interval_text,
        board=first["board"], options=_options_text(first["options"], [seat.name for seat in numbers.seats]),
        folders=_folders(first["options"].get("card_paths")),
        yours_rows=[c for c in numbers.cards if c.yours], yours_corporations=[c for c in numbers.corporations
                                                                             if c.yours],
        verdicts=not numbers.mixed_bots, bots=_bots_text, distinct_bots=sorted(set(numbers.bots)),
        verdict=lambda item: _verdict(item, numbers.average), percent=_percent)


def _bots_text(item) -> str:
    """`greedy 10, random 1`: which bots played a card or corporation, and how many times each."""
    return ", ".join(f"{bot} {count}" for bot, count in item.bots)


def _folders(card_paths) -> list[str]:
    """The designer's folders as the page names them: relative to the current folder (results files written before
    records said them so hold absolute paths), never a home folder's name."""
    if not isinstance(card_paths, list):
        return []
    return relative_paths([path for path in card_paths if isinstance(path, str)])


# The options of a record as the flags that ask for them; `initial_draft` goes with --draft, the folders and the
# corporations are said on their own.
_FLAGS = {"corporate_era": "--corporate-era", "draft": "--draft", "beginner": "--beginner", "solo_tr63": "--solo-tr63",
          "expansions": "--expansion", "sites": "--site", "max_generations": "--max-generations"}


def _options_text(options: dict, seats: list[str]) -> str:
    """The game options that differ from a plain game, as the flags that ask for them."""
    shown = []
    for key, value in options.items():
        if key not in _FLAGS or value in (False, None, [], ()):
            continue
        flag = _FLAGS[key]
        if value is True:
            shown.append(flag)
        elif isinstance(value, list):
            shown += [f"{flag} {item}" for item in value]
        else:
            shown.append(f"{flag} {value}")
    for seat, corporation in zip(seats, options.get("corporations") or []):
        if corporation:
            shown.append(f"--corporation {seat}={corporation}")
    return " ".join(shown)


def _percent(value: float) -> str:
    return f"{value:.1%}"


def _verdict(item, average: float) -> str:
    """Does the 95 % interval of a win rate lie above or below the average player's?"""
    low, high = item.interval
    if low > average:
        return "stronger than average"
    if high < average:
        return "weaker than average"
    return "not shown to differ"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("tharsis.games", "templates/report"), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


# ------------------------------------------------------------------------------------------- charts

def _charts(numbers: Balance, measured: Optional[Effects] = None) -> dict[str, Markup]:
    import matplotlib

    with matplotlib.rc_context(STYLE), warnings.catch_warnings():
        # a card name in a script DejaVu Sans lacks is measured with a fallback glyph; the browser draws it right
        warnings.simplefilter("ignore", UserWarning)
        charts = {"effects": _effects_chart(measured)} if measured is not None and measured.cards else {}
        charts["seats"] = _seats(numbers)
        if numbers.corporations:
            charts["corporations"] = _rates_chart(
                "corporations", "Win rate per corporation (95% interval)", numbers.corporations, numbers.average,
                "players who played it")
        if numbers.cards:
            charts["cards"] = _cards(numbers)
        charts["scores"] = _scores(numbers)
        charts["generations"] = _generations(numbers)
    return charts


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg(figure, chart: str) -> Markup:
    """The figure as an <svg> element for the page: no XML prologue, and every id prefixed with the chart's name
    (each chart's ids are unique only within its own SVG, and a page is one document)."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)   # who drew it: said in the footer
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{chart}-{m.group(1)}"', text)
    text = re.sub(r'url\(#([^)]+)\)', lambda m: f'url(#{chart}-{m.group(1)})', text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{chart}-{m.group(1)}"', text)
    text = text.replace("<svg ", f'<svg role="img" aria-labelledby="{chart}-title" class="chart" ', 1)
    return Markup(text)


def _percent_axis(axis, *, top: bool = False) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axis.set_xlim(0, 1)
    axis.grid(axis="x", color="#dddddd", linewidth=0.6)
    axis.set_axisbelow(True)
    if top:  # a tall chart: the scale at the top too, where its first rows are
        axis.tick_params(axis="x", labeltop=True)


def _literal_labels(axis) -> None:
    """Card names are text, not mathtext: `$` in a name stays a dollar sign."""
    for label in axis.get_yticklabels():
        label.set_parse_math(False)


def _interval_errors(items) -> list[list[float]]:
    """The error bars of the rates: how far each interval reaches below and above (never less than nothing: at a
    rate of 0 or 1 the interval ends at the rate, give or take a rounding)."""
    return [[max(0.0, item.rate - item.interval[0]) for item in items],
            [max(0.0, item.interval[1] - item.rate) for item in items]]


def _average_line(axis, average: float) -> None:
    axis.axvline(average, color=AVERAGE, linestyle="--", linewidth=1.2,
                 label=f"average player ({average:.0%})")


def _seats(numbers: Balance) -> Markup:
    rows = list(numbers.seats)
    figure = _figure(WIDTH, 1.3 + 0.45 * len(rows))
    axis = figure.add_subplot()
    labels = [f"{rate.name} ({bot})" for rate, bot in zip(rows, numbers.bots)]
    positions = list(range(len(rows)))[::-1]
    axis.barh(positions, [r.rate for r in rows], xerr=_interval_errors(rows), color=BUNDLED, height=0.6,
              error_kw={"ecolor": ERROR_BARS, "capsize": 4, "elinewidth": 1.5})
    axis.set_yticks(positions, labels)
    _literal_labels(axis)
    _percent_axis(axis)
    if len(rows) > 1:
        _average_line(axis, numbers.average)
        figure.legend(loc="outside lower right", frameon=False, fontsize=9)
    axis.set_xlabel(f"games won, of {numbers.games}")
    axis.set_title("Win rate per seat (95% interval)")
    return _svg(figure, "seats")


def _rates_chart(chart: str, title: str, rows: Sequence[Rate], average: float, counted: str) -> Markup:
    figure = _figure(WIDTH, 1.6 + 0.26 * len(rows))
    axis = figure.add_subplot()
    positions = list(range(len(rows)))[::-1]
    colours = [YOURS if r.yours else BUNDLED for r in rows]
    for position, rate in zip(positions, rows):
        if rate.yours:
            axis.axhspan(position - 0.5, position + 0.5, color=YOURS_BAND, zorder=0, linewidth=0)
    axis.barh(positions, [r.rate for r in rows], xerr=_interval_errors(rows), color=colours, height=0.62,
              error_kw={"ecolor": ERROR_BARS, "capsize": 2.5, "elinewidth": 1.5})
    axis.set_yticks(positions, [f"{r.name} ({r.games})" for r in rows])
    _literal_labels(axis)
    _colour_yours(axis, rows)
    _percent_axis(axis, top=len(rows) > 20)
    _average_line(axis, average)
    axis.set_ylim(-0.6, len(rows) - 0.4)
    figure.legend(handles=_legend_handles(axis, any(r.yours for r in rows)), loc="outside lower center", ncols=3,
                  frameon=False, fontsize=9)
    axis.set_xlabel(f"win rate of the {counted} (how many in brackets)")
    axis.set_title(title)
    return _svg(figure, chart)


def _colour_yours(axis, rows) -> None:
    for label, row in zip(axis.get_yticklabels(), rows):   # the labels are in the order they were given
        if row.yours:
            label.set_color(YOURS)
            label.set_fontweight("bold")


def _legend_handles(axis, with_yours: bool) -> list:
    from matplotlib.patches import Patch

    handles = [line for line in axis.get_lines() if line.get_label().startswith("average")]
    handles.append(Patch(color=BUNDLED, label="bundled"))
    if with_yours:
        handles.append(Patch(color=YOURS, label="yours (--cards)"))
    return handles


def _cards(numbers: Balance) -> Markup:
    """Every card played, one row each across four panels sharing the rows: play rate, win rate when played with
    its interval, VP per card, generation played; highest win rate first."""
    rows: list[CardBalance] = list(numbers.cards)
    figure = _figure(WIDE, 1.9 + 0.19 * len(rows))
    axes = figure.subplots(1, 4, sharey=True, width_ratios=[1, 1.5, 1, 1])
    positions = list(range(len(rows)))[::-1]
    colours = [YOURS if c.yours else BUNDLED for c in rows]
    tall = len(rows) > 20
    for axis in axes:
        for position, card in zip(positions, rows):
            if card.yours:
                axis.axhspan(position - 0.5, position + 0.5, color=YOURS_BAND, zorder=0, linewidth=0)
        axis.grid(axis="x", color="#dddddd", linewidth=0.6)
        axis.set_axisbelow(True)
        if tall:
            axis.tick_params(axis="x", labeltop=True)
    play, win, vp, generation = axes
    play.barh(positions, [c.play_rate for c in rows], color=colours, height=0.7)
    _percent_axis(play, top=tall)
    play.set_xlim(0, max(0.05, min(1.0, max(c.play_rate for c in rows) * 1.1)))
    play.set_title("Play rate")
    play.set_xlabel("share of the games")
    win.barh(positions, [c.rate for c in rows], xerr=_interval_errors(rows), color=colours, height=0.7,
             error_kw={"ecolor": ERROR_BARS, "capsize": 1.5, "elinewidth": 0.8})
    _percent_axis(win, top=tall)
    _average_line(win, numbers.average)
    win.set_title("Win rate when played")
    win.set_xlabel("its players who won (95% interval)")
    vp.barh(positions, [c.vp for c in rows], color=colours, height=0.7)
    vp.axvline(0, color=AVERAGE, linewidth=0.8)
    vp.set_title("VP per card")
    vp.set_xlabel("mean VP at the end")
    known = [(p, c.generation, colour) for p, c, colour in zip(positions, rows, colours) if c.generation is not None]
    generation.scatter([g for _, g, _ in known], [p for p, _, _ in known], c=[colour for _, _, colour in known],
                       s=18, zorder=3)
    highest = max([g for _, g, _ in known] + [1])
    generation.set_xlim(0.5, math.ceil(highest) + 0.5)
    generation.set_title("Generation played")
    generation.set_xlabel("mean generation")
    play.set_yticks(positions, [f"{c.name} ({c.plays})" for c in rows])
    play.set_ylim(-0.6, len(rows) - 0.4)
    _literal_labels(play)
    _colour_yours(play, rows)
    figure.legend(handles=_legend_handles(win, any(c.yours for c in rows)), loc="outside upper center", ncols=3,
                  frameon=False, fontsize=9)
    return _svg(figure, "cards")


def _effects_chart(measured: Effects) -> Markup:
    """Every tested card, one row each across two panels sharing the rows: the effect on its holder's win rate (in
    percentage points) and on its holder's final score, each with its corrected interval; highest win effect first."""
    rows = list(measured.cards)
    figure = _figure(WIDE, 1.9 + 0.3 * len(rows))
    axes = figure.subplots(1, 2, sharey=True)
    positions = list(range(len(rows)))[::-1]
    colours = [YOURS if c.yours else BUNDLED for c in rows]
    for axis, measure, scale, title, label in (
            (axes[0], "win", 100.0, "Effect on the win rate", "percentage points, with the card less without it"),
            (axes[1], "vp", 1.0, "Effect on VP", "final score, with the card less without it")):
        estimates = [getattr(card, measure) for card in rows]
        for position, card in zip(positions, rows):
            if card.yours:
                axis.axhspan(position - 0.5, position + 0.5, color=YOURS_BAND, zorder=0, linewidth=0)
        errors = [[(e.mean - e.low) * scale if e.low is not None else 0.0 for e in estimates],
                  [(e.high - e.mean) * scale if e.high is not None else 0.0 for e in estimates]]
        axis.barh(positions, [e.mean * scale for e in estimates], xerr=errors, color=colours, height=0.6,
                  error_kw={"ecolor": ERROR_BARS, "capsize": 3, "elinewidth": 1.5})
        axis.axvline(0, color=AVERAGE, linewidth=1.2)
        axis.grid(axis="x", color="#dddddd", linewidth=0.6)
        axis.set_axisbelow(True)
        reach = max([abs(v) * scale for e in estimates for v in (e.mean, e.low, e.high) if v is not None] + [1.0])
        axis.set_xlim(-reach * 1.08, reach * 1.08)   # zero in the middle: an effect's sign is seen at a glance
        axis.set_title(title)
        axis.set_xlabel(label)
    axes[0].set_yticks(positions, [f"{c.name} ({c.pairs})" for c in rows])
    axes[0].set_ylim(-0.6, len(rows) - 0.4)
    _literal_labels(axes[0])
    _colour_yours(axes[0], rows)
    figure.legend(handles=_legend_handles(axes[0], any(c.yours for c in rows)), loc="outside lower center", ncols=3,
                  frameon=False, fontsize=9)
    return _svg(figure, "effects")


def _scores(numbers: Balance) -> Markup:
    figure = _figure(WIDTH, 3.6)
    axis = figure.add_subplot()
    every = [score for scores in numbers.scores for score in scores]
    low, high = min(every), max(every)
    width = max(1, math.ceil((high - low + 1) / 30))
    bins = list(range(low, high + width + 1, width))
    for index, (seat, scores) in enumerate(zip(numbers.seats, numbers.scores)):
        mean = sum(scores) / len(scores)
        axis.hist(scores, bins=bins, histtype="step", linewidth=2, color=SEAT_COLOURS[index % len(SEAT_COLOURS)],
                  label=f"{seat.name} (mean {mean:.1f})")
    axis.set_xlabel("final score (VP)")
    axis.set_ylabel("games")
    axis.yaxis.get_major_locator().set_params(integer=True)
    for text in axis.legend(frameon=False, fontsize=9).get_texts():   # seat names are text, not mathtext
        text.set_parse_math(False)
    axis.set_title("Final scores per seat")
    return _svg(figure, "scores")


def _generations(numbers: Balance) -> Markup:
    figure = _figure(WIDTH, 3.2)
    axis = figure.add_subplot()
    counts: dict[int, int] = {}
    for generations in numbers.generations:
        counts[generations] = counts.get(generations, 0) + 1
    lengths = list(range(min(counts), max(counts) + 1))
    axis.bar(lengths, [counts.get(n, 0) for n in lengths], color=BUNDLED, width=0.7)
    axis.set_xticks(lengths)
    axis.set_xlabel("generations")
    axis.set_ylabel("games")
    axis.yaxis.get_major_locator().set_params(integer=True)
    mean = sum(numbers.generations) / len(numbers.generations)
    axis.set_title(f"Game length (mean {mean:.1f} generations)")
    return _svg(figure, "generations")

