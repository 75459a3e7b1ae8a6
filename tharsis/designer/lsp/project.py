"""Which files a document is compiled with: its project, rooted at the folder that holds `[tool.tharsis]`.

`tharsis check` run at a project's root (no PATH) checks the `cards` paths of its `[tool.tharsis]` with the bundled
content; the editor compiles a document that lies in one of those paths the same way, so a tag declared in
`cards/declarations.mars` counts in `cards/missions/probes.mars`, and a name defined twice anywhere in the project
is reported. A document outside the configured paths, or in a project without `cards`, is compiled with the
files of its own folder, as `tharsis check FOLDER` would. The project's `select`, `ignore` and `with-bundled`
apply either way; a broken configuration is `tharsis check`'s to report (it says where), the editor goes on with
the defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import attrs

from tharsis.compiler import bundled_cards_path
from tharsis.compiler.pipeline import EXTENSION
from tharsis.designer import config
from tharsis.designer.config import Config


@attrs.frozen
class Project:
    root: Optional[Path]           # the folder of the pyproject.toml that holds [tool.tharsis]; None without one
    settings: Config
    files: tuple[Path, ...]        # the files and folders the document is compiled with


def project_of(document: Path) -> Project:
    """The project of a document (an absolute path)."""
    settings = _settings(document.parent)
    root = settings.path.resolve().parent if settings.path is not None else None
    bundled = (bundled_cards_path(),) if settings.with_bundled else ()
    configured = tuple(Path(path).resolve() for path in settings.cards)
    if any(document == path or path in document.parents for path in configured):
        return Project(root, settings, bundled + tuple(path for path in configured if path.exists()))
    neighbours = tuple(sorted(p for p in document.parent.glob("*" + EXTENSION) if p.is_file())) \
        if document.parent.is_dir() else ()
    return Project(root, settings, bundled + neighbours)


def _settings(folder: Path) -> Config:
    try:
        return config.discover(start=folder)
    except config.ConfigError:
        return Config()
