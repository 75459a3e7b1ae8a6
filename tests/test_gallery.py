"""The card gallery as HTML, without a browser: every card is there once, names are escaped, the designer's
diagnostics sit on the cards they are about, and the page needs nothing from the network.

tests/test_gallery_browser.py runs the same page in headless Chromium.
"""

import re

import pytest
from gallery_pages import DESIGNER_CARDS, Articles

from tharsis.cli import main
from tharsis.designer import gallery


@pytest.fixture(scope="module")
def designer_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("designer") / "mine"
    folder.mkdir()
    (folder / "cards.mars").write_text(DESIGNER_CARDS, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def built(designer_folder):
    return gallery.build([designer_folder], "en")


@pytest.fixture(scope="module")
def page(built):
    return gallery.render(built)


@pytest.fixture(scope="module")
def faces(page):
    return Articles(page)


def test_every_bundled_card_corporation_site_and_faction_has_exactly_one_face(bundled, faces):
    elements = [d for d in bundled.library.definitions if d.kind in ("site", "faction")]
    expected = sorted(d.name for d in bundled.library.cards + bundled.library.corporations + elements)
    bundled_faces = sorted(c["data-name"] for c in faces.cards if c["data-from"] == "bundled")
    assert bundled_faces == expected


def test_a_face_shows_cost_tags_requirement_rules_text_and_vp(faces):
    livestock = faces.named("Livestock")
    assert livestock["class"].split() == ["card", "active"]
    assert livestock["data-set"] == "base" and livestock["data-tags"] == " animal "
    text = " ".join(livestock["text"].split())
    for part in ("13", "oxygen at least 9%", "animal", "Livestock", "When played Decrease your plant production",
                 "Action Add 1 animal to this card.", "1 VP per animal here.", "#184"):
        assert part in text, part


def test_card_names_and_messages_are_escaped(page, faces):
    assert "Dust <&>" not in page and "Dust &lt;&amp;&gt; Co&#39;s Mine" in page
    assert faces.named("Dust <&> Co's Mine")["data-from"].endswith("mine")
    # the warning quotes the designer's text, markup included: it must stay text
    assert "Nowhere <b>" not in page and "Nowhere &lt;b&gt;" in page
    quoted = faces.named('Quote "Me" <&>')
    assert 'data-name="Quote &#34;Me&#34; &lt;&amp;&gt;"' in page and 'Quote "Me"' not in page
    assert "E001" in quoted["text"] and quoted["data-type"] == "unknown"


def test_an_error_is_shown_on_its_card_with_code_message_and_line(faces, designer_folder):
    vats = faces.named("Spore Vats")
    assert "has-error" in vats["class"].split()
    text = " ".join(vats["text"].split())
    assert "E102" in text and "unknown tag 'plantt'" in text and "did you mean 'plant'?" in text
    assert f"{designer_folder / 'cards.mars'}:7:43" in text
    assert "tags: plantt" in text  # the offending source line


def test_a_card_that_does_not_compile_still_appears_with_its_error(faces):
    half = faces.named("Half Written")
    assert half["data-type"] == "unknown" and "has-error" in half["class"].split()
    text = " ".join(half["text"].split())
    assert "could not be compiled" in text and "E001" in text and ":13:23" in text


def test_a_warning_marks_its_card_without_making_it_an_error(faces):
    far = faces.named("Far Away")
    assert "has-warning" in far["class"].split() and "has-error" not in far["class"].split()
    assert "W102" in far["text"]
    clean = faces.named("Dust <&> Co's Mine")
    assert clean["data-problems"] == "0" and clean["class"].split() == ["card", "automated"]


def test_problems_outside_any_card_are_listed_on_their_own(page, built):
    assert [p.code for p in built.loose_problems] == ["E104"]
    loose = page.split('<section class="loose">')[1].split("</section>")[0]
    assert "E104" in loose and "gremlins" in loose


def test_the_page_is_self_contained(page):
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "<script src" not in page and "@import" not in page
    assert "<style>" in page and "<script>" in page


def test_filters_offer_every_set_type_tag_and_origin(page):
    def options(select_id):
        block = page.split(f'<select id="{select_id}">')[1].split("</select>")[0]
        return re.findall(r'<option value="([^"]*)"', block)

    assert options("set") == ["", "base", "colonies", "corpera", "mine", "prelude", "turmoil", "venus"]
    assert options("type") == ["", "automated", "active", "event", "global event", "prelude", "corporation", "site",
                               "faction", "unknown"]
    assert {"jovian", "building", "animal", "earth"} <= set(options("tag"))
    assert options("from")[0] == "" and options("from")[-1] == "bundled"


def test_the_chinese_gallery_prints_chinese_rules_text(designer_folder):
    page = gallery.render(gallery.build([designer_folder], "zh"))
    assert '<html lang="zh-Hans">' in page and "卡牌图鉴" in page
    livestock = " ".join(Articles(page).named("Livestock")["text"].split())
    assert "打出时 减少1点植物产量，增加2点M€产量。" in livestock and "When played" not in page
    # the card's Chinese name (cards/zh.names) is its title, its name in the card text beneath it, to search by
    assert livestock.startswith("13 氧气浓度至少9%动物 畜牧 Livestock 行动")


def test_the_chinese_gallery_names_common_cjk_fonts_for_its_text():
    """Chinese shows as boxes where the browser's default font has no Chinese: the page names the fonts that
    Linux, macOS and Windows ship with Chinese in them."""
    page = gallery.render(gallery.Gallery(faces=(), loose_problems=(), language="zh"))
    fonts = page[page.index(":lang(zh) body"):].split("}", 1)[0]
    for font in ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei"):
        assert f'"{font}"' in fonts


def _faces_of(bundled) -> int:
    return len(bundled.library.cards + bundled.library.corporations)


def test_gallery_command_writes_the_page_and_fails_on_the_designers_errors(bundled, designer_folder, tmp_path,
                                                                           capsys):
    assert main(["gallery", str(tmp_path / "site"), str(designer_folder)]) == 1
    out = capsys.readouterr().out
    assert f"{_faces_of(bundled) + 5} cards, 4 with problems (4 errors)" in out
    assert (tmp_path / "site" / "index.html").read_text("utf-8").startswith("<!DOCTYPE html>")


def test_gallery_command_of_the_bundled_content_alone_succeeds(bundled, tmp_path, capsys):
    assert main(["gallery", str(tmp_path / "site"), "--lang", "zh"]) == 0
    assert f"{_faces_of(bundled)} cards, 0 with problems (0 errors)" in capsys.readouterr().out


def test_gallery_command_usage_errors(tmp_path, capsys):
    assert main(["gallery", str(tmp_path / "site"), str(tmp_path / "missing")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["gallery", str(tmp_path / "file")]) == 2
    assert f"{tmp_path / 'file'}: error[E730]: the gallery goes into a folder, and this is a file" \
        in capsys.readouterr().err
    assert main(["gallery", str(tmp_path / "file" / "site")]) == 2   # a folder that cannot be created
    assert "error[E730]: cannot write the gallery here" in capsys.readouterr().err


def test_the_gallery_shows_what_check_reports_suppressions_and_project_configuration(tmp_path, capsys):
    project = tmp_path / "project"
    (project / "mine").mkdir(parents=True)
    (project / "mine" / "cards.mars").write_text(
        'card "Far Away" #T4 {\n  set: mine  type: automated  cost: 5\n'
        '  play: place city on reserved "Nowhere"  // tharsis: ignore[W102]\n}\n'
        'card "Also Far" #T5 {\n  set: mine  type: automated  cost: 5\n'
        '  play: place city on reserved "Elsewhere"\n}\n', encoding="utf-8")
    (project / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["mine"]\n', encoding="utf-8")
    site = tmp_path / "site"
    assert main(["gallery", str(site), "--config", str(project / "pyproject.toml")]) == 0
    faces = Articles((site / "index.html").read_text("utf-8"))
    assert faces.named("Far Away")["data-problems"] == "0"      # suppressed on its line
    assert "W102" in faces.named("Also Far")["text"]             # from the configured folder
    (project / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["mine"]\nignore = ["W102"]\n', encoding="utf-8")
    assert main(["gallery", str(site), "--config", str(project / "pyproject.toml")]) == 0
    assert Articles((site / "index.html").read_text("utf-8")).named("Also Far")["data-problems"] == "0"
    assert "cards, 0 with problems" in capsys.readouterr().out.splitlines()[-1]


def test_the_page_has_the_same_words_in_every_language():
    assert set(gallery.labels("en")) == set(gallery.labels("zh"))


@pytest.fixture(scope="module")
def chinese_faces():
    return Articles(gallery.render(gallery.build([], "zh", expansions=["colonies", "turmoil"])))


def test_a_site_shows_its_track_step_by_step_its_bonuses_and_where_the_marker_starts(faces):
    ganymede = faces.named("Ganymede")
    assert ganymede["class"].split() == ["card", "site"] and ganymede["data-type"] == "site"
    assert ganymede["data-set"] == "colonies"
    text = " ".join(ganymede["text"].split())
    for part in ("Holds 3 colonies, 1 of each player's at most", "Visited by a trade fleet",
                 "When it is visited, each piece here gives its owner: Gain 1 plant.",
                 "Placing a piece here: Increase your plant production 1 step.",
                 "0 Nothing.", "1 Gain 1 plant.", "2 Gain 2 plants.", "6 Gain 6 plants."):
        assert part in text, part
    assert "Inactive until any player plays a card that holds microbes." in faces.named("Enceladus")["text"]


def test_a_faction_shows_its_bonus_and_its_policy(faces):
    reds = " ".join(faces.named("Reds")["text"].split())
    assert faces.named("Reds")["data-type"] == "faction"
    assert "Coming to power: If the number of players exactly 1:" in reds
    assert "Each TR step you gain in the action phase costs 3 MC" in reds
    scientists = " ".join(faces.named("Scientists")["text"].split())
    assert "Coming to power: Each player: Gain 1 MC per science tag." in scientists
    assert "While ruling, every player's action: Pay 10 MC. -> Draw 3 cards." in scientists


def test_a_global_event_shows_its_kind_and_what_each_stage_does(faces):
    war = " ".join(faces.named("War on Earth")["text"].split())
    for part in ("global event", "On reveal: Place a delegate from the neutral reserve in Mars First.",
                 "On entering the current stage: Place a delegate from the neutral reserve in Kelvinists."):
        assert part in war, part
    assert "Only in play with Venus Next and Colonies." in faces.named("Cloud Societies")["text"]


def test_sites_factions_and_global_events_read_in_chinese(chinese_faces):
    ganymede = " ".join(chinese_faces.named("Ganymede")["text"].split())
    assert "木卫三" in ganymede and "站点" in ganymede and "获得6点植物" in ganymede
    mars_first = chinese_faces.named("Mars First")["text"]
    assert "派系" in mars_first and "火星优先" in mars_first
    war = chinese_faces.named("War on Earth")["text"]
    assert "地球战争" in war and "全球事件" in war and "揭示时" in war and "进入当前阶段时" in war


def test_the_gallery_command_counts_the_sites_and_factions_apart(tmp_path, capsys):
    assert main(["gallery", str(tmp_path / "site"), "--expansion", "colonies", "--expansion", "turmoil"]) == 0
    assert "0 with problems (0 errors); 11 sites, 6 factions" in capsys.readouterr().out


def test_a_source_line_wraps_between_words_and_shows_what_is_not_printable_escaped(tmp_path):
    """The excerpt under a problem wraps as text does (never mid-word, as `word-break: break-all` did), and a
    control character, a byte that is no UTF-8 or a binary file's bytes are escaped, as `tharsis check` shows them."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "ctrl.mars").write_bytes(b'card "Red" #ES1 {\n  type: automated  cost: 3\n'
                                     b'  play: gain 1 heat \x01\x1b[31m\n}\n')
    (mine / "latin.mars").write_bytes('card "Caf\xe9" #ES2 {\n  type: automated  cost: 3\n}\n'.encode("latin-1"))
    (mine / "junk.mars").write_bytes(b"\x7fELF\x02\x01\x00" + bytes(range(0x80, 0x100)) * 4)   # one line
    page = gallery.render(gallery.build([mine], "en"))
    assert "word-break: break-all" not in page and "overflow-wrap: anywhere" in page
    sources = re.findall(r'<code class="source">([^<]*)</code>', page)
    assert "3 |   play: gain 1 heat \\x01\\x1b[31m" in sources
    assert "1 | card &#34;Caf\\xe9&#34; #ES2 {" in sources
    junk = next(s for s in sources if s.startswith("1 | \\x7fELF\\x02\\x01\\x00"))
    assert junk.endswith("...") and len(junk) < 200 and "\x1b" not in page and "\x00" not in page
