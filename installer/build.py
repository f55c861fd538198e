"""Build the one-folder bundle and smoke-test it (qutebrowser's release habit).

    python installer/build.py            # build dist/InquiryBridge/ and smoke-test it
    python installer/build.py --no-smoke # build only

The smoke test starts the frozen executable headless with a temporary data folder, runs
``ingest --offline`` on the bundled demo mailbox and ``inquiries --json``, and fails on a non-zero
exit or unexpected stderr. On Windows, Inno Setup (``iscc installer/inquiry_bridge.iss``) then wraps
the folder into a setup.exe.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build() -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            str(ROOT / "installer" / "inquiry_bridge.spec"),
        ],
        cwd=ROOT,
        check=True,
    )
    return ROOT / "dist" / "InquiryBridge"


def smoke(bundle: Path) -> None:
    exe = bundle / ("InquiryBridge.exe" if os.name == "nt" else "InquiryBridge")
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "INQUIRY_BRIDGE_HOME": home}
        demo = ROOT / "resources" / "demo"
        steps = [
            [str(exe), "ingest", "--eml-dir", str(demo), "--offline"],
            [str(exe), "inquiries", "--json"],
        ]
        for step in steps:
            done = subprocess.run(step, env=env, capture_output=True, text=True, timeout=300)
            if done.returncode != 0 or done.stderr.strip():
                raise SystemExit(f"smoke test failed: {' '.join(step)}\n{done.stderr}")
        inquiries = json.loads(done.stdout)
        if not inquiries:
            raise SystemExit("smoke test failed: the demo mailbox produced no inquiries")
        print(f"smoke test passed: {len(inquiries)} demo inquiries")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-smoke", action="store_true")
    args = parser.parse_args()
    bundle = build()
    if not args.no_smoke:
        smoke(bundle)


if __name__ == "__main__":
    main()
