"""The one build step pyproject.toml cannot say: compiling the game engine with Cython, when asked to.

`pip install .` installs the engine as plain Python, in seconds. `THARSIS_COMPILE=1 pip install .` compiles every
module of runtime/ and of its layers (core, rules, handlers, sequence, api, bots) to a C extension from the same
.py source, unchanged, with the types Cython's augmenting .pxd files beside some of them declare (the state, the
flow, the table, the decisions as C extension types: docs/benchmarks.md, issue 36); the .py files are installed
beside the extensions, for reading and for tracebacks, and Python imports the extension when there is one.

Why plain Python is the default (docs/benchmarks.md, "Compiling the engine: what it buys"): on a 2-core machine,
compiling took 2 min when it was quiet, 4-6 min while other work ran and 23 min in issue 35's run, where a plain install
takes 5-12 s. In return the compiled engine executes a third fewer instructions (52.2 M against 78.5 M per random game:
1.50x, issue 36) and, in CPU time measured in interleaved rounds, ran 1.18-1.50x as many games per second at load 16-19
(median 1.35x) but 1.04-1.08x beside a running C compiler (1.25x on a quiet machine and 1.1-1.3x at load 6-8 before the
.pxd files; issue 35 had found nothing gained at load 2.5-5). It pays for its wait only in long simulation campaigns on
a machine of one's own, so it is a choice, not the set-up's toll.

Compiling is asked for by `THARSIS_COMPILE=1`, and only then is Cython a build requirement (`setup_requires`, which
setuptools' PEP 517 backend hands to pip: a plain install does not fetch it). Even when asked, the engine stays
plain Python:

- in an editable install (`pip install -e .`, the tests' install): a compiled module would hide every later edit
  of its .py file;
- where Cython cannot be imported, no C compiler works, or a module fails to compile: every module stays plain
  Python (a module that stayed Python could not give a compiled one the C type it declares in its .pxd, and the
  engine would not import), and `tharsis --version` names the cause (pip shows a build's output only with -v).

Every other install leaves a record of what this build did beside the engine (runtime/build.json), which
`tharsis --version` reads: which modules were compiled in this build, in how many seconds, and which were reused
from an earlier build (pip builds in the checkout's build/ folder, and setuptools does not compile again a module
whose C file has not changed since), so an install never claims a compile it did not do.

Annotations are documentation here, not C types (`annotation_typing=False`): the compiled engine accepts exactly
what the Python one does, so the two cannot behave differently. The .pxd files type only what cannot change a
result: lists and dicts of the state as such, numbers as Python objects (a bot's splitmix64 in unsigned 64-bit C,
which is what rng.py's masks compute). Cython finds one .pxd from another by the installed package's names
(`tharsis/runtime/core/state.pxd`), which the checkout does not have: `_declarations` copies them to such a
folder. CI's second pass (.ci/run) compiles the engine this way and plays the fingerprint games
(tests/test_engine_fingerprint.py) and the other engine tests on it.
"""

from __future__ import annotations

import filecmp
import glob
import json
import os
import shutil
import time
from typing import Optional

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# every module of runtime/ and its layers' subpackages; the packages' __init__.py only document and re-export
ENGINE = sorted(path for path in glob.glob(os.path.join("runtime", "**", "*.py"), recursive=True)
                if os.path.basename(path) != "__init__.py")

COMPILE = os.environ.get("THARSIS_COMPILE") == "1"

DIRECTIVES = {
    "language_level": 3,
    "binding": True,              # functions stay Python-like: picklable (--jobs), with __name__ and attributes
    "annotation_typing": False,   # see above
}


class OptionalCompile(build_ext):
    """`build_ext` that compiles the engine when asked and able, and otherwise leaves it as plain Python (it never
    fails the install); either way it records what it did, for `tharsis --version`."""

    def run(self) -> None:
        editable = getattr(self, "editable_mode", False) or self.inplace
        if editable or not COMPILE:
            self._remove_compiled()
            if not editable:   # an editable install runs the checkout's runtime/, where no record belongs
                self._record(compiled=0, reused=0, seconds=0.0)
            return
        started = time.monotonic()
        print(f"compiling the engine's {len(self.extensions)} modules with Cython and the C compiler "
              f"(THARSIS_COMPILE=1; about 2 minutes on two quiet cores)", flush=True)
        try:
            from Cython.Build import cythonize
        except ImportError as error:
            self._give_up(f"Cython is not available ({error})")
            return
        try:  # the C files replace the .py sources of the extensions setuptools has prepared (not new objects)
            translated = cythonize(self.extensions, build_dir=os.path.join(self.build_temp, "cython"),
                                   include_path=[self._declarations()], compiler_directives=DIRECTIVES, quiet=True)
            c_sources = {extension.name: extension.sources for extension in translated}
            for extension in self.extensions:
                extension.sources = c_sources[extension.name]
        except Exception as error:  # noqa: BLE001 - any failure to translate leaves the engine as Python
            self._give_up(f"Cython could not translate the engine ({error})")
            return
        self.parallel = self.parallel or os.cpu_count() or 1
        self._failed: list[str] = []
        self._built: list[str] = []
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - no C compiler, say
            self._give_up(f"the engine could not be compiled ({error})")
            return
        if self._failed:  # all or nothing: the modules share C types (the .pxd files), so half an engine won't import
            self._give_up(f"{len(self._failed)} of the engine's {len(self.extensions)} modules could not be compiled "
                          f"({self._failed[0]}{', ...' if len(self._failed) > 1 else ''})")
            return
        reused = len(self.extensions) - len(self._built)
        self._record(compiled=len(self._built), reused=reused, seconds=time.monotonic() - started)

    def _declarations(self) -> str:
        """A folder where the engine's .pxd files are found under the installed package's names
        (`tharsis/runtime/core/state.pxd`), which is how one .pxd `cimport`s another's types; the checkout keeps
        them beside their .py files in runtime/, under no tharsis/ folder. Copied, not linked (Windows)."""
        folder = os.path.join(self.build_temp, "declarations")
        for path in glob.glob(os.path.join("runtime", "**", "*.pxd"), recursive=True) + \
                glob.glob(os.path.join("runtime", "**", "__init__.py"), recursive=True):
            target = os.path.join(folder, "tharsis", path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if not os.path.exists(target) or not filecmp.cmp(path, target, shallow=False):
                shutil.copy2(path, target)   # its time kept: Cython compiles again only what depends on a change
        open(os.path.join(folder, "tharsis", "__init__.py"), "w").close()
        return folder

    def build_extension(self, extension: Extension) -> None:
        """Compile one module, noting whether it was compiled now or reused: setuptools skips, silently, a module
        whose compiled file is newer than its C file (an earlier build's, in build/)."""
        path = self.get_ext_fullpath(extension.name)
        before = os.stat(path).st_mtime_ns if os.path.exists(path) else None
        try:
            super().build_extension(extension)
        except Exception as error:  # noqa: BLE001 - noted: `run` then installs every module as Python
            self._failed.append(f"{extension.name}: {error}")
            self._remove_compiled([extension])
            return
        if before is None or os.stat(path).st_mtime_ns != before:
            self._built.append(extension.name)

    def _give_up(self, cause: str) -> None:
        self._remove_compiled()
        _warn(cause)
        self._record(compiled=0, reused=0, seconds=0.0, problem=cause)

    def _remove_compiled(self, extensions: Optional[list] = None) -> None:
        """Delete compiled modules left by an earlier build (pip reuses build/), which would shadow the .py files:
        whatever is not compiled now is installed as Python (every module, or those of `extensions`)."""
        for extension in self.extensions if extensions is None else extensions:
            path = self.get_ext_fullpath(extension.name)
            if os.path.exists(path):
                os.remove(path)

    def _record(self, compiled: int, reused: int, seconds: float, problem: Optional[str] = None) -> None:
        """Leave what this build did beside the engine, for `tharsis --version` (pip hides a build's output); it
        replaces the record of any earlier build in build/, which is packed into the wheel with the engine."""
        folder = os.path.join(self.build_lib, "tharsis", "runtime")
        os.makedirs(folder, exist_ok=True)
        record = {"compile_asked": COMPILE, "modules": len(self.extensions), "compiled": compiled, "reused": reused,
                  "seconds": round(seconds), "jobs": self.parallel or 1, "problem": problem}
        with open(os.path.join(folder, "build.json"), "w", encoding="utf-8") as file:
            json.dump(record, file)


def _warn(cause: str) -> None:
    print(f"warning: {cause}; what is not compiled is installed as plain Python, which plays the same games "
          f"(see setup.py)", flush=True)


# no debug information: the C is generated, nobody steps through it, and gcc then compiles it about a fifth faster
FLAGS = [] if os.name == "nt" else ["-g0"]

setup(
    ext_modules=[Extension("tharsis." + os.path.splitext(path)[0].replace(os.sep, "."), [path],
                           extra_compile_args=FLAGS) for path in ENGINE],
    cmdclass={"build_ext": OptionalCompile},
    setup_requires=["Cython>=3.0"] if COMPILE else [],
)
