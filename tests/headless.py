"""Headless Chromium for the browser tests of the gallery and the balance report (a Debian package, not a Python
dependency: .ci/run installs it; the tests skip, saying so, without it)."""

import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")


def chromium(*args: str) -> bytes:
    """Run headless Chromium with the flags that make a screenshot or a DOM dump repeatable; its standard output."""
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--no-first-run", "--disable-extensions", "--force-color-profile=srgb", *args]
    return subprocess.run(command, capture_output=True, timeout=120, check=True).stdout
