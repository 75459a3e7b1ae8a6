"""The one build step pyproject.toml cannot say: compiling the game engine's modules with Cython.

`pip install .` compiles every module of runtime/ and of its layers (core, rules, handlers, sequence, api, bots) to a
C extension from the same .py source, unchanged. A compiled engine plays the same games about 1.3-1.4x as fast
(docs/benchmarks.md); the .py files are installed beside the extensions, for reading and for tracebacks, and
Python imports the extension when there is one. Compiling is skipped, and the engine installed as plain Python,
when:

- the install is editable (`pip install -e .`): a compiled module would hide every later edit of its .py file;
- `THARSIS_PURE_PYTHON=1` is set (to profile the engine line by line, say, or to install in seconds);
- `PRE_COMMIT=1` is set, as pre-commit does when it installs the hooks' environment: the hooks only check and
  format card text, which a compiled engine does not speed up, and compiling would make the first commit wait;
- Cython cannot be imported, no C compiler works, or a module fails to compile: a warning names the cause, and
  each module that did not compile stays plain Python.

Annotations are documentation here, not C types (`annotation_typing=False`): the compiled engine accepts exactly
what the Python one does, so the two cannot behave differently. tests/test_install.py checks that a plain
`pip install .` is compiled and plays the fingerprint games (tests/test_engine_fingerprint.py) to the same end.
"""

from __future__ import annotations

import glob
import json
import os
import time
from typing import Optional

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# every module of runtime/ and its layers' subpackages; the packages' __init__.py only document and re-export
ENGINE = sorted(path for path in glob.glob(os.path.join("runtime", "**", "*.py"), recursive=True)
                if os.path.basename(path) != "__init__.py")

DIRECTIVES = {
    "language_level": 3,
    "binding": True,              # functions stay Python-like: picklable (--jobs), with __name__ and attributes
    "annotation_typing": False,   # see above
}


class OptionalCompile(build_ext):
    """`build_ext` that compiles the engine when it can and otherwise leaves it as plain Python (never fails)."""

    def run(self) -> None:
        if (getattr(self, "editable_mode", False) or self.inplace or os.environ.get("THARSIS_PURE_PYTHON") == "1"
                or os.environ.get("PRE_COMMIT") == "1"):
            self._remove_compiled()
            return
        started = time.monotonic()
        try:
            from Cython.Build import cythonize
        except ImportError as error:
            self._remove_compiled()
            _warn(f"Cython is not available ({error})")
            return
        try:  # the C files replace the .py sources of the extensions setuptools has prepared (not new objects)
            translated = cythonize(self.extensions, build_dir=os.path.join(self.build_temp, "cython"),
                                   compiler_directives=DIRECTIVES, quiet=True)
            c_sources = {extension.name: extension.sources for extension in translated}
            for extension in self.extensions:
                extension.sources = c_sources[extension.name]
        except Exception as error:  # noqa: BLE001 - any failure to translate leaves the engine as Python
            self._remove_compiled()
            _warn(f"Cython could not translate the engine ({error})")
            return
        self.parallel = self.parallel or os.cpu_count() or 1
        self._failed: list[str] = []
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - no C compiler, say
            self._remove_compiled()
            _warn(f"the engine could not be compiled ({error})")
            return
        self._record(time.monotonic() - started)
        if self._failed:
            _warn(f"{len(self._failed)} of the engine's {len(self.extensions)} modules could not be compiled "
                  f"({self._failed[0]}{', ...' if len(self._failed) > 1 else ''})")

    def _remove_compiled(self, extensions: Optional[list] = None) -> None:
        """Delete compiled modules left by an earlier build (pip reuses build/), which would shadow the .py files:
        whatever is not compiled now is installed as Python (every module, or those of `extensions`)."""
        for extension in self.extensions if extensions is None else extensions:
            path = self.get_ext_fullpath(extension.name)
            if os.path.exists(path):
                os.remove(path)

    def _record(self, seconds: float) -> None:
        """Leave how long compiling took beside the engine, for `tharsis --version` (pip hides a build's output)."""
        folder = os.path.join(self.build_lib, "tharsis", "runtime")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "build.json"), "w", encoding="utf-8") as file:
            json.dump({"compile_seconds": round(seconds), "jobs": self.parallel}, file)

    def build_extension(self, extension: Extension) -> None:
        try:
            super().build_extension(extension)
        except Exception as error:  # noqa: BLE001 - this module stays Python; the others may compile
            self._failed.append(f"{extension.name}: {error}")
            self._remove_compiled([extension])


def _warn(cause: str) -> None:
    print(f"warning: {cause}; what is not compiled is installed as plain Python, which plays the same games "
          f"more slowly (see setup.py)", flush=True)


# no debug information: the C is generated, nobody steps through it, and gcc then compiles it about a fifth faster
FLAGS = [] if os.name == "nt" else ["-g0"]

setup(
    ext_modules=[Extension("tharsis." + os.path.splitext(path)[0].replace(os.sep, "."), [path],
                           extra_compile_args=FLAGS) for path in ENGINE],
    cmdclass={"build_ext": OptionalCompile},
)
