"""The card gallery in a real browser: headless Chromium (Debian's `chromium` package; .ci/run installs it).

`--dump-dom` prints the page after its script ran, so the URL fragment (#tag=jovian, #q=..., #problems=1) must
have filtered the faces exactly as a user who opened that link would see them; `--screenshot` must show card faces
coloured by type and the designer's broken card outlined in red. Skipped only when chromium is not installed.
"""

import struct
import zlib
from urllib.parse import quote

import pytest
from gallery_pages import DESIGNER_CARDS, Articles
from headless import chromium, needs_chromium

from tharsis.designer import gallery

pytestmark = needs_chromium

ERROR_OUTLINE = (0xFF, 0x3B, 0x30)   # .card.has-error in templates/gallery/index.html.j2
ACTIVE_BLUE = (0x1F, 0x5F, 0xA8)     # --active
AUTOMATED_GREEN = (0x2E, 0x7D, 0x32)  # --automated



@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("gallery")
    folder = root / "mine"
    folder.mkdir()
    (folder / "cards.mars").write_text(DESIGNER_CARDS, encoding="utf-8")
    pages = {"folder": folder}
    for language in ("en", "zh"):
        pages[language] = gallery.write(root / f"site-{language}", gallery.build([folder], language))
    return pages


def _dom(page, fragment: str) -> Articles:
    return Articles(chromium("--dump-dom", page.as_uri() + fragment).decode("utf-8"))


def test_a_tag_in_the_url_fragment_shows_exactly_the_cards_with_that_tag(site, bundled):
    faces = _dom(site["en"], "#tag=jovian")
    expected = sorted(d.name for d in bundled.library.cards + bundled.library.corporations if "jovian" in d.tags)
    assert sorted(c["data-name"] for c in faces.shown()) == expected
    elements = [d for d in bundled.library.definitions if d.kind in ("site", "faction")]
    # + the sites and factions, and the designer's 5 cards
    assert len(faces.cards) == len(bundled.library.cards + bundled.library.corporations + elements) + 5


def test_the_type_filter_shows_the_sites_and_the_factions(site, bundled):
    for kind in ("site", "faction"):
        faces = _dom(site["en"], f"#type={kind}")
        expected = sorted(d.name for d in bundled.library.definitions if d.kind == kind)
        assert sorted(c["data-name"] for c in faces.shown()) == expected
    faces = _dom(site["en"], "#type=site&q=" + quote("gain 13 heat"))
    assert [c["data-name"] for c in faces.shown()] == ["Io"]


def test_search_type_and_origin_filters_combine(site):
    faces = _dom(site["en"], "#q=livestock")
    assert [c["data-name"] for c in faces.shown()] == ["Livestock"]
    faces = _dom(site["en"], "#problems=1&type=active")
    assert [c["data-name"] for c in faces.shown()] == ["Spore Vats"]


def test_searching_chinese_rules_text_in_the_chinese_gallery(site):
    faces = _dom(site["zh"], "#type=event&q=" + quote("放置1个海洋板块"))
    shown = faces.shown()
    assert shown and all(c["data-type"] == "event" and "放置1个海洋板块" in c["text"] for c in shown)


def test_a_filter_that_matches_nothing_says_so(site):
    html = chromium("--dump-dom", site["en"].as_uri() + "#q=no-such-card-anywhere").decode("utf-8")
    assert Articles(html).shown() == []
    assert '<p id="none">' in html and 'id="shown">0<' in html


def _pixels(png: bytes):
    """The RGB(A) pixels of a non-interlaced 8-bit PNG, as Chromium writes them: width, height, rows."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, data, header = 8, b"", None
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        body = png[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(data), width * channels, [], bytearray(width * channels)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + up) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif filter_type == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def _count(colour, width, channels, rows) -> int:
    wanted = bytes(colour)
    return sum(1 for row in rows for x in range(width) if row[x * channels:x * channels + 3] == wanted)


def test_the_screenshot_shows_type_colours_and_the_broken_card_outlined(site, tmp_path):
    shot = tmp_path / "gallery.png"
    chromium(f"--screenshot={shot}", "--window-size=1000,760", site["en"].as_uri() + "#problems=1&set=mine")
    width, height, channels, rows = _pixels(shot.read_bytes())
    assert (width, height) == (1000, 760)
    assert _count(ERROR_OUTLINE, width, channels, rows) > 500        # Spore Vats' outline
    assert _count(ACTIVE_BLUE, width, channels, rows) > 2000         # Spore Vats' title band and border
    assert _count(AUTOMATED_GREEN, width, channels, rows) > 2000     # Far Away (warned, not an error)
