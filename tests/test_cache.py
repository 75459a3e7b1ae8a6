"""The compile cache makes things faster, never wrong, and runs nothing it reads (issue 18, M5 and M6).

Whoever can write the cache folder (a shared CI cache, a THARSIS_CACHE_DIR others may write) plants entries under
their predictable names: a pickle that runs code, bytes dressed as a signed entry, an entry signed with another
key, a valid entry renamed to another file's name, a named pipe. Each must be a cache miss: the file is compiled
again, exactly as without a cache, and nothing planted runs.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tharsis.compiler import cache, compile_paths

CARDS = {
    "cows.mars": textwrap.dedent("""\
        card "Space Cows" #X1 {
          type: active  cost: 13  tags: animal
          requires: oxygen >= 9%
          holds: animal
          play: production(plants -1, megacredits +2)
          action: add 1 animal here
          vp: 1 per animal here
        }
    """),
    "alpha.mars": textwrap.dedent("""\
        card "Alpha" #X2 {
          type: automated  cost: 8  tags: building
          play: production(energy +1); gain 2 steel
        }
        card "Beta" #X3 {
          type: event  cost: 4  tags: space
          play: temperature +1
          vp: 1
        }
    """),
    "notes.mars": "// ideas for later: a card that defines nothing is warned about (W001)\n",
    "gamma.mars": textwrap.dedent("""\
        card "Gamma" #X4 {
          type: automated  cost: 30  tags: science
          requires: temperature >= -30C
          play: gain 1 plants
        }
    """),
}


class _WritesMarker:
    """Unpickling this calls open(marker, "w"): the file appears if a planted pickle ever runs."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """A cache folder and a signing key of this test's own."""
    monkeypatch.setenv("THARSIS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("THARSIS_NO_CACHE", raising=False)
    cache.folder.cache_clear()
    cache._secret.cache_clear()
    yield tmp_path
    cache.folder.cache_clear()
    cache._secret.cache_clear()


def _write_cards(folder):
    folder.mkdir(exist_ok=True)
    for name, text in CARDS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [folder / name for name in CARDS]


def _entries():
    return sorted(cache.folder().iterdir()) if cache.folder().is_dir() else []


def _same(result, fresh) -> bool:
    return result.library.definitions == fresh.library.definitions and result.diagnostics == fresh.diagnostics


def test_entries_are_signed_with_a_private_key_kept_outside_the_cache_folder(private_cache):
    paths = _write_cards(private_cache / "mine")
    compile_paths(paths)
    key = cache.key_path()
    assert key.is_file() and cache.folder() not in key.parents
    if os.name == "posix":
        assert key.stat().st_mode & 0o777 == 0o600
        assert key.parent.stat().st_mode & 0o077 == 0
    assert len(_entries()) == len(CARDS)
    assert all(entry.read_bytes().startswith(cache._MAGIC) for entry in _entries())


def _plant_everywhere(payload_for) -> None:
    for entry in _entries():
        entry.write_bytes(payload_for(entry.name))


def _run(*args, env):
    return subprocess.run([sys.executable, "-m", "tharsis", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_a_planted_pickle_runs_no_code_in_check_or_in_a_game(private_cache):
    """The bundled content is read from the cache by every command, `check --no-cache` and games included: plant
    a code-running pickle under every entry's name (raw, dressed as a signed entry, signed with another key)."""
    mine = private_cache / "mine"
    paths = _write_cards(mine)
    marker = private_cache / "marker"
    env = dict(os.environ, PYTHONPATH="")  # the fixture's cache folder and key, as a later process finds them
    first = _run("check", *map(str, paths), env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert len(_entries()) > len(CARDS)  # the bundled content's entries too

    evil = pickle.dumps(_WritesMarker(marker), protocol=pickle.HIGHEST_PROTOCOL)
    foreign_key = bytes(range(32))
    plantings = {
        "a bare pickle": lambda name: evil,
        "a pickle behind a forged header": lambda name: cache._MAGIC + os.urandom(32) + name.encode() + evil,
        "a pickle signed with another key": lambda name: (
            cache._MAGIC + cache._sign(foreign_key, cache.folder().name, name.encode() + evil) + name.encode() + evil),
    }
    commands = (["check", "--no-cache", *map(str, paths)], ["check", *map(str, paths)],
                ["play", "--seat", "a=random", "--seat", "b=random", "--no-log", "--seed", "3",
                 "--max-generations", "1", "--cards", str(mine)])
    for planting, payload_for in plantings.items():
        for command in commands if planting == "a bare pickle" else commands[:1]:
            _plant_everywhere(payload_for)
            completed = _run(*command, env=env)
            assert not marker.exists(), f"{planting} ran code in tharsis {command[0]}"
            assert completed.returncode == 0, (planting, command, completed.stdout + completed.stderr)
            assert "internal error" not in completed.stdout + completed.stderr
            if command[0] == "check":
                assert completed.stdout == first.stdout, planting


def test_even_a_correctly_signed_pickle_builds_nothing_but_compiled_data(private_cache):
    """A second wall should the key leak: the unpickler refuses every global but the compiler's data classes."""
    paths = _write_cards(private_cache / "mine")
    fresh = compile_paths(paths, use_cache=False)
    compile_paths(paths)
    marker = private_cache / "marker"
    secret = cache._secret(str(cache.key_path()))
    for entry in _entries():
        body = entry.name.encode() + pickle.dumps(_WritesMarker(marker), protocol=pickle.HIGHEST_PROTOCOL)
        entry.write_bytes(cache._MAGIC + cache._sign(secret, cache.folder().name, body) + body)
        assert cache.load(entry.name) is None
    assert not marker.exists()
    assert _same(compile_paths(paths), fresh)


def test_an_entry_renamed_to_another_files_name_is_a_miss(private_cache):
    """Signed, but for another text: `Alpha` must not compile to what the cache holds for `Space Cows`."""
    paths = _write_cards(private_cache / "mine")
    fresh = compile_paths(paths, use_cache=False)
    compile_paths(paths)
    entries = _entries()
    contents = [entry.read_bytes() for entry in entries]
    for entry, content in zip(entries, contents[1:] + contents[:1]):
        entry.write_bytes(content)
    assert all(cache.load(entry.name) is None for entry in entries)
    assert _same(compile_paths(paths), fresh)
    assert [entry.read_bytes() for entry in entries] == contents  # each miss wrote its entry again


def test_an_entry_from_another_compiler_version_is_a_miss(private_cache):
    paths = _write_cards(private_cache / "mine")
    compile_paths(paths)
    entry = _entries()[0]
    secret = cache._secret(str(cache.key_path()))
    body = entry.read_bytes()[len(cache._MAGIC) + 32:]
    entry.write_bytes(cache._MAGIC + cache._sign(secret, "compiled-0.0.1-0123456789abcdef", body) + body)
    assert cache.load(entry.name) is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_or_a_link_under_an_entrys_name_is_a_miss_not_a_hang(private_cache):
    paths = _write_cards(private_cache / "mine")
    fresh = compile_paths(paths, use_cache=False)
    compile_paths(paths)
    pipe, link, *_ = _entries()
    pipe.unlink()
    os.mkfifo(pipe)
    link.unlink()
    os.symlink("/dev/zero", link)
    loaded = []
    reader = threading.Thread(target=lambda: loaded.extend([cache.load(pipe.name), cache.load(link.name)]),
                              daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "reading the cache waits on a named pipe"
    assert loaded == [None, None]
    assert _same(compile_paths(paths), fresh)


@pytest.mark.skipif(os.name != "posix", reason="POSIX owners and permissions")
def test_a_key_others_may_read_turns_the_cache_off(private_cache):
    paths = _write_cards(private_cache / "mine")
    compile_paths(paths)
    cache.key_path().chmod(0o644)  # anyone who can read it can sign entries
    cache._secret.cache_clear()
    assert all(cache.load(entry.name) is None for entry in _entries())
    for entry in _entries():
        entry.unlink()
    fresh = compile_paths(paths, use_cache=False)
    assert _same(compile_paths(paths), fresh)
    assert _entries() == []  # nothing is signed with a key that cannot be trusted


def _corrupt(data: bytes, rng: random.Random) -> bytes:
    how = rng.randrange(5)
    if how == 0:  # flip one to four bytes
        changed = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            changed[rng.randrange(len(changed))] ^= rng.randint(1, 255)
        return bytes(changed)
    if how == 1:  # truncate
        return data[:rng.randrange(len(data))]
    if how == 2:  # append
        return data + rng.randbytes(rng.randint(1, 64))
    if how == 3:  # insert or delete one byte
        at = rng.randrange(len(data))
        return data[:at] + rng.randbytes(1) + data[at:] if rng.random() < 0.5 else data[:at] + data[at + 1:]
    at = rng.randrange(len(data))  # overwrite a run of bytes
    run = rng.randbytes(rng.randint(1, 32))
    return (data[:at] + run + data[at + len(run):])[:len(data)] or run


@pytest.mark.slow
def test_two_thousand_corrupted_entries_give_no_crash_and_no_changed_card(private_cache):
    """Of 1,894 one-byte changes to pickled entries, 112 changed a compiled card and 388 crashed. Every corruption
    (flipped, truncated, appended, inserted, deleted bytes) must now be a miss that compiles the file afresh."""
    paths = _write_cards(private_cache / "mine")
    fresh = {path: compile_paths([path], use_cache=False) for path in paths}
    entries = {}
    for path in paths:
        before = set(_entries())
        compile_paths([path])
        (entry,) = set(_entries()) - before
        entries[path] = (entry, entry.read_bytes(), cache.load(entry.name))
    rng = random.Random(18)
    started = time.process_time()  # CPU time: a bound against a pathological miss path, not against a busy machine
    outcomes = {"miss": 0, "changed": 0, "crash": 0}
    for attempt in range(2000):
        path = rng.choice(paths)
        entry, original, stored = entries[path]
        corrupted = _corrupt(original, rng)
        if corrupted == original:
            continue
        entry.write_bytes(corrupted)
        try:
            if attempt % 4:  # the unit: a miss, or exactly what was stored
                loaded = cache.load(entry.name)
                entry.write_bytes(original)
                outcome = "miss" if loaded is None else "changed" if loaded != stored else "hit"
            else:  # the whole: the same cards and diagnostics as a fresh compile, and the entry written again
                result = compile_paths([path])
                outcome = ("changed" if not _same(result, fresh[path]) else
                           "miss" if entry.read_bytes() == original else "not written again")
        except Exception:  # a corrupted object may even fail to compare
            outcome = "crash"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert outcomes["changed"] == outcomes["crash"] == 0, outcomes
    assert outcomes["miss"] >= 1990, outcomes
    assert time.process_time() - started < 20


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=st.integers(min_value=0), cut=st.integers(min_value=0), junk=st.binary(max_size=48))
def test_fuzz_an_entrys_bytes_give_a_miss_or_exactly_what_was_stored(private_cache, at, cut, junk):
    """Bytes replaced at any place, and the entry cut anywhere after them: a miss, or the entry unchanged."""
    path = private_cache / "alpha.mars"
    if not path.exists():
        path.write_text(CARDS["alpha.mars"], encoding="utf-8")
        compile_paths([path])
    (entry,) = _entries()
    original = entry.read_bytes()
    stored = cache.load(entry.name)
    at %= len(original)
    changed = (original[:at] + junk + original[at + len(junk):])[:max(at + len(junk), cut % (len(original) + 1))]
    entry.write_bytes(changed)
    try:
        loaded = cache.load(entry.name)
    finally:
        entry.write_bytes(original)
    assert loaded is None if changed != original else loaded == stored
