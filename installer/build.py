"""Build the one-folder bundle, report its size, smoke-test it (qutebrowser's release habit).

    python installer/build.py              # dist/InquiryBridge/, size report, smoke test
    python installer/build.py --no-smoke   # build and size report only

Run it with the interpreter of a *clean* venv: the package and its runtime dependencies plus
PyInstaller (``pip install -e '.[bundle]'``), no test extras. PyInstaller collects whatever the
app's imports can reach in that venv, and a venv with the test extras was seen to ship hypothesis;
the build refuses to run where test tooling is installed (``--allow-test-tools`` overrides).

The size report prints the bundle with and without Whisper weights (model folders: a
``model.bin`` beside a ``config.json``) against the budget, and its 15 biggest parts. The smoke
test (installer/smoke.py) then runs the frozen executable through the owner's basics and prints the
frozen cold start. Exit status 1 when the build or the smoke test fails, or the size budget is
exceeded. On Windows, ``iscc installer/inquiry_bridge.iss`` then wraps the folder into a setup.exe.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import smoke

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BUNDLE = DIST / "InquiryBridge"
SPEC = ROOT / "installer" / "inquiry_bridge.spec"
# The bundle without Whisper weights. The target is 350 MB; the Linux build meets it with ~5 MB to
# spare once PyAV's FFmpeg is left out (core/voice/audio.py decodes with libsndfile) — and 37 MB
# of it is ICU, which Qt ships on Linux only (installer/README.md, "Size"). The budget that fails
# the build sits a little above the target, so growth is caught before it is large.
SIZE_TARGET_MB = 350
SIZE_BUDGET_MB = {"linux": 360, "win32": 350, "darwin": 350}
TEST_TOOLS = ("pytest", "hypothesis", "pytestqt", "keyrings.alt", "ruff", "mypy")
MB = 1024 * 1024


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a dotted name whose parent package is absent
        return False


def check_clean_venv() -> None:
    found = [name for name in TEST_TOOLS if _installed(name)]
    if found:
        raise SystemExit(
            f"build.py: this interpreter has test tooling installed ({', '.join(found)}); build "
            "from a clean venv (pip install -e '.[bundle]') or pass --allow-test-tools"
        )


def build() -> float:
    """Run PyInstaller on the spec; returns the seconds it took."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", str(SPEC)],
        cwd=ROOT,
        check=True,
    )
    return time.perf_counter() - started


def carry_publisher_id(bundle: Path) -> None:
    """Write the publisher's Microsoft app id (INQUIRY_BRIDGE_PUBLISHER_CLIENT_ID) into the
    bundle's resources, so the packaged app signs in with one button (core/graph/app_id.py)."""
    from core.graph.app_id import BUILD_ENV, write_publisher_id

    value = os.environ.get(BUILD_ENV, "").strip()
    if not value:
        print(f"build.py: {BUILD_ENV} is not set: the bundle asks for an Azure app id")
        return
    write_publisher_id(bundle / "_internal" / "resources", value)
    print("build.py: the bundle carries the publisher's Microsoft app id")


def _files(root: Path) -> list[Path]:
    """Regular files under ``root``; symlinks (PyInstaller links top-level library names to the
    real files inside package folders) are not counted twice."""
    if root.is_file() and not root.is_symlink():
        return [root]
    found = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            if not path.is_symlink():
                found.append(path)
    return found


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in _files(root))


def weight_folders(bundle: Path) -> list[Path]:
    """Whisper model folders in the bundle (the tiny.en package's, resources/models/*)."""
    return sorted(
        p.parent
        for p in _files(bundle)
        if p.name == "model.bin" and (p.parent / "config.json").exists()
    )


def parts(bundle: Path) -> dict[str, int]:
    """Sizes by part: each package folder or loose library under _internal (Qt split into its
    libraries, plugins and translations), each Whisper model folder on its own."""
    internal = bundle / "_internal"
    weights = weight_folders(bundle)
    sizes: dict[str, int] = defaultdict(int)
    for w in weights:
        sizes[f"{w.relative_to(bundle)} (Whisper weights)"] = _size(w)
    for path in _files(bundle):
        if any(w in path.parents for w in weights):
            continue
        if internal not in path.parents:
            key = path.relative_to(bundle).parts[0]
        else:
            rel = path.relative_to(internal).parts
            if rel[0] == "PySide6":
                key = (
                    f"PySide6/Qt/{rel[2]}"
                    if len(rel) > 3 and rel[1] == "Qt"
                    else "PySide6 (bindings)"
                )
            else:
                key = rel[0]
        sizes[key] += path.stat().st_size
    return dict(sizes)


def report(bundle: Path) -> float:
    """Print the size report; returns MB without Whisper weights."""
    total = _size(bundle)
    weights = sum(_size(w) for w in weight_folders(bundle))
    without = (total - weights) / MB
    budget = SIZE_BUDGET_MB.get(sys.platform, SIZE_TARGET_MB)
    print(f"\nbundle {bundle.relative_to(ROOT)}: {total / MB:.0f} MB on disk")
    for w in weight_folders(bundle):
        print(f"  Whisper weights {w.relative_to(bundle)}: {_size(w) / MB:.0f} MB")
    verdict = "ok" if without <= SIZE_TARGET_MB else "over the target"
    print(
        f"without Whisper weights: {without:.0f} MB (target ≤ {SIZE_TARGET_MB} MB: {verdict}; "
        f"budget on {sys.platform}: {budget} MB)"
    )
    print("15 biggest parts:")
    for label, size in sorted(parts(bundle).items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {size / MB:7.1f} MB  {label}")
    return without


def main() -> int:
    parser = argparse.ArgumentParser(description="build, measure and smoke-test the bundle")
    parser.add_argument("--no-smoke", action="store_true", help="build and measure only")
    parser.add_argument("--no-build", action="store_true", help="measure/smoke an existing build")
    parser.add_argument("--allow-test-tools", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.no_build:
        if not args.allow_test_tools:
            check_clean_venv()
        if os.name != "nt" and shutil.which("objdump") is None:
            raise SystemExit(
                "build.py: PyInstaller needs objdump and strip (apt-get install binutils)"
            )
        seconds = build()
        print(f"\nPyInstaller took {seconds:.0f} s")
        carry_publisher_id(BUNDLE)
    without = report(BUNDLE)
    budget = SIZE_BUDGET_MB.get(sys.platform, SIZE_TARGET_MB)
    failed = False
    if without > budget:
        print(f"build.py: the bundle without weights ({without:.0f} MB) exceeds {budget} MB")
        failed = True
    if not args.no_smoke:
        status = smoke.main([str(BUNDLE)])
        failed = failed or status != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
