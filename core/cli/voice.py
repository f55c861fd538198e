"""``transcribe FILE [--language auto|zh|en]``: print the transcript of an audio file.

Uses the same Whisper as the desktop and the Telegram bot, the App's child process
(``core.voice.worker``), and the same model resolution (settings, then
``INQUIRY_BRIDGE_WHISPER_MODEL``, then the bundled model), so it doubles as the owner's (and
support's) check that the configured model works, and the installer's smoke test runs the frozen
app's Whisper child through it. The transcript goes to stdout alone, so it can
be piped; detected language and timing go to stderr with ``--verbose``.

Chinese speech given to an English-only model exits 1 with one line saying so (never English
noise on stdout); a low-confidence transcript is printed with a one-line warning on stderr.

``voice-model download [--endpoint URL]`` / ``voice-model import PATH``: the headless way to get
the multilingual model (same code as the desktop's Download / Import buttons); the installed
model is selected and its folder printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.app import App
from core.voice.download import RECOMMENDED, download_model, hub_endpoint, import_model
from core.voice.models import LANGUAGES, format_size


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "transcribe",
        parents=[common],
        help="print the transcript of an audio file (wav, mp3, m4a, ogg…)",
        description="语音转文字 / print the transcript of an audio file",
    )
    p.add_argument("file", metavar="FILE", type=Path, help="audio file")
    p.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="spoken language (default: the voice.language setting, normally auto)",
    )
    p.add_argument("--verbose", "-v", action="store_true", help="language and timing on stderr")
    p.set_defaults(handler=_transcribe)

    m = sub.add_parser(
        "voice-model",
        parents=[common],
        help="download or import the multilingual Whisper model and select it",
        description="下载或导入多语言语音模型 / get the multilingual voice model",
    )
    actions = m.add_subparsers(dest="action", required=True)
    # --home is welcome after the action too, as after every other command
    d = actions.add_parser(
        "download", parents=[common], help=f"download {RECOMMENDED.repo_id} (resumes)"
    )
    d.add_argument("--endpoint", default=None, help="Hub or mirror URL (default: HF_ENDPOINT)")
    i = actions.add_parser("import", parents=[common], help="import a model folder or zip")
    i.add_argument("path", type=Path)
    m.set_defaults(handler=_voice_model)


def _transcribe(args: argparse.Namespace, app: App) -> int:
    transcriber = app.voice.transcriber()
    result = transcriber.transcribe_file(args.file, language=args.language)
    if result.text:
        print(result.text)
        if result.uncertain:
            print(
                "inquiry-bridge: 识别结果不确定，请核对 / the transcript is uncertain, please check it",
                file=sys.stderr,
            )
    else:
        print("inquiry-bridge: 没有识别到说话 / no speech recognised", file=sys.stderr)
    if args.verbose:
        print(
            f"language={result.language} duration={result.duration_s:.1f}s "
            f"elapsed={result.elapsed_s:.2f}s load={result.load_s:.2f}s "
            f"rtf={result.real_time_factor:.2f} model={result.model} "
            f"logprob={result.avg_logprob:.2f} uncertain={result.uncertain}",
            file=sys.stderr,
        )
    return 0


def _voice_model(args: argparse.Namespace, app: App) -> int:
    if args.action == "import":
        folder = import_model(app.home, args.path)
    else:
        shown = [-1]

        def progress(done: int, total: int) -> None:
            tenth = int(10 * done / total) if total else 0
            if tenth != shown[0]:
                shown[0] = tenth
                print(f"{format_size(done)} / {format_size(total)}", file=sys.stderr)

        folder = download_model(
            app.home,
            endpoint=args.endpoint or hub_endpoint(app.settings),
            progress=progress,
        )
    app.settings.set("voice.model_dir", str(folder))
    print(folder)
    return 0
