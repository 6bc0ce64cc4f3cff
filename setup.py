"""Build of the optional native Carcassonne engine (everything else is in pyproject.toml).

The extension `boardwright.games.carcassonne.native._engine` is compiled from the C++ sources
of `src/boardwright/games/carcassonne/native/cpp/` and nanobind's own sources. It is optional:
without a C++ compiler, without nanobind, when the compilation fails, or with the environment
variable BOARDWRIGHT_NATIVE=0, the install still succeeds, says so in one warning line, and the
package runs on the Python engine (the rules reference).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from glob import glob
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

EXTENSION = "boardwright.games.carcassonne.native._engine"
CPP_DIR = Path("src/boardwright/games/carcassonne/native/cpp")
# BOARDWRIGHT_NATIVE_OPT: the compiler's optimisation level (3 unless given: 0 builds much
# faster, for checking that an install builds at all; the engine is then several times slower).
OPT_LEVEL = os.environ.get("BOARDWRIGHT_NATIVE_OPT", "3").strip()
COMPILE_ARGS = ["-std=c++17", f"-O{OPT_LEVEL if OPT_LEVEL in ('0', '1', '2', '3') else '3'}",
                "-fvisibility=hidden", "-DNDEBUG",
                "-DNB_COMPACT_ASSERTIONS", "-ffunction-sections", "-fdata-sections"]
# nanobind's own sources use raw CPython API casts that need this (see nb_combined.cpp); the
# engine's sources keep strict aliasing, hence a separate compilation of nanobind.
NANOBIND_ARGS = ["-fno-strict-aliasing"]
LINK_ARGS = ["-Wl,--gc-sections", "-Wl,-s"]
SWITCH = "BOARDWRIGHT_NATIVE"


class SkipNative(Exception):
    """Why the native engine is not built (one short line)."""


def warn(reason: str) -> None:
    """The one line an install without the native engine prints."""
    print(f"boardwright: native Carcassonne engine not built ({reason}); "
          "the Python engine will be used", file=sys.stderr, flush=True)


def reason_of(exc: BaseException) -> str:
    """A short reason for a failed build: which program failed, not its whole command line."""
    step = {"CompileError": "C++ compilation failed", "LinkError": "linking failed"}.get(
        type(exc).__name__, "build failed")
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, subprocess.CalledProcessError):
            program = Path(str(cause.cmd[0] if isinstance(cause.cmd, (list, tuple)) else cause.cmd))
            return f"{step}: {program.name} exited with status {cause.returncode}"
        if isinstance(cause, FileNotFoundError) and cause.filename:
            return f"no C++ compiler: {cause.filename} not found"
        cause = cause.__cause__ or cause.__context__
    text = " ".join(str(exc).split()) or type(exc).__name__
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"{step}: {text}"


def build_jobs() -> int:
    """How many compilers run at once: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class optional_build_ext(build_ext):
    """`build_ext` that builds the native engine when it can and otherwise leaves it out.

    A failed or skipped build also removes what an earlier build left (in the build directory,
    and beside the sources for an editable install), so the package never imports an engine
    older than its sources.

    The sources compile on every core at once (setuptools compiles one file after another):
    nanobind's one large file starts first and the engine's files share the other compilers;
    the link waits for all of them."""

    def build_extensions(self) -> None:
        try:
            if os.environ.get(SWITCH, "").strip() == "0":
                raise SkipNative(f"{SWITCH}=0")
            with ThreadPoolExecutor(build_jobs()) as pool:
                self._compile_in(pool)
                self._prepare_nanobind(pool)
                super().build_extensions()
        except SkipNative as exc:
            self._leave_out(str(exc))
        except Exception as exc:  # no compiler, a compile or link error: the package still works
            self._leave_out(reason_of(exc))

    def _compile_in(self, pool: ThreadPoolExecutor) -> None:
        """The compiler's `compile` runs each source on `pool` (the same commands as
        setuptools' own loop), and its link waits for what is still compiling."""
        compiler = self.compiler
        pending: list[Future] = []
        self._pending = pending
        self._compile_one_by_one = compiler.compile

        def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=False,
                    extra_preargs=None, extra_postargs=None, depends=None):
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
            jobs = [pool.submit(compiler._compile, obj, *build[obj], cc_args, extra_postargs,
                                pp_opts) for obj in objects if obj in build]
            pending.extend(jobs)
            for job in jobs:
                job.result()
            return objects

        link = compiler.link

        def link_when_compiled(*args, **kwargs):
            for job in pending:
                job.result()  # (raises a compilation's error here)
            return link(*args, **kwargs)

        compiler.compile = compile
        compiler.link = link_when_compiled

    def _prepare_nanobind(self, pool: ThreadPoolExecutor) -> None:
        """Start compiling nanobind's sources (once, with their own flags) and give the objects
        and include directories to the extension (its link waits for them)."""
        try:
            import nanobind
        except ImportError:
            raise SkipNative("nanobind is not installed") from None
        source_dir = Path(nanobind.source_dir())
        includes = [nanobind.include_dir(), str(source_dir.parent / "ext/robin_map/include")]
        for ext in self.extensions:
            ext.include_dirs = [*includes, *ext.include_dirs]
        source = str(source_dir / "nb_combined.cpp")
        objects = self.compiler.object_filenames([source], output_dir=self.build_temp)
        self._pending.append(pool.submit(
            self._compile_one_by_one, [source], output_dir=self.build_temp, include_dirs=includes,
            extra_postargs=[*COMPILE_ARGS, *NANOBIND_ARGS]))
        for ext in self.extensions:
            ext.extra_objects = [*objects, *ext.extra_objects]

    def _leave_out(self, reason: str) -> None:
        warn(reason)
        for ext in self.extensions:
            ext.optional = True  # setuptools then copies nothing in place (an error otherwise)
            for stale in self._built_files(ext):
                if stale.exists():
                    stale.unlink()

    def _built_files(self, ext: Extension) -> list[Path]:
        """Where earlier builds put the extension: the build directory (whose contents go into
        a wheel) and, for an editable install, beside the package's sources."""
        fullname = self.get_ext_fullname(ext.name)
        filename = self.get_ext_filename(fullname)
        files = [Path(self.build_lib, filename)]
        if self.editable_mode:
            package_dir = self.get_finalized_command("build_py").get_package_dir(
                fullname.rpartition(".")[0])
            files.append(Path(package_dir, os.path.basename(filename)))
        return files


setup(
    ext_modules=[Extension(
        EXTENSION,
        sources=sorted(glob(str(CPP_DIR / "*.cpp"))),
        depends=sorted(glob(str(CPP_DIR / "*.h")) + glob(str(CPP_DIR / "*.hpp"))),
        language="c++",
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
    )],
    cmdclass={"build_ext": optional_build_ext},
)
