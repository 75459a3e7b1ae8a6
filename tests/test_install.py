"""A non-editable `pip install .` into a fresh venv works from another directory (grammar and cards included)."""

import os
import subprocess
import venv

import pytest


@pytest.mark.skipif(os.environ.get("THARSIS_SKIP_INSTALL_TEST") == "1", reason="THARSIS_SKIP_INSTALL_TEST=1")
def test_pip_install_then_check_from_elsewhere(repo, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                              str(repo)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "mine.mars").write_text('card "Cow" #1 {\n  type: automated  cost: 3  tags: aminal\n}\n',
                                         encoding="utf-8")
    tharsis = env_dir / "bin" / "tharsis"
    env = dict(os.environ, THARSIS_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH="")
    checked = subprocess.run([str(tharsis), "check", "mine.mars"], cwd=elsewhere, capture_output=True, text=True,
                             env=env)
    assert checked.returncode == 1
    assert "mine.mars:2:35: error[E102]: unknown tag 'aminal'" in checked.stdout
    listed = subprocess.run([str(tharsis), "cards", "--format", "json"], cwd=elsewhere, capture_output=True,
                            text=True, env=env)
    assert listed.returncode == 0, listed.stderr
    assert '"name": "Livestock"' in listed.stdout
    # nothing but the one `tharsis` package lands in site-packages
    top_level = subprocess.run([str(python), "-c", "import importlib.util as u; print([m for m in "
                                "('compiler','runtime','grammar','cards') if u.find_spec(m)])"],
                               cwd=elsewhere, capture_output=True, text=True, env=env)
    assert top_level.stdout.strip() == "[]"
