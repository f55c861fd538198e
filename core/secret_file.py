"""Where secrets go when the OS has no keyring: one owner-only file in the data folder.

Headless Linux and some desktops have no Secret Service, so ``keyring`` can only refuse; dropping
the owner's API key there (as the app once did) loses his work. The fallback is
``<data folder>/secrets.bin``: on Windows encrypted for his Windows account with DPAPI (through
msal-extensions, already a dependency for the token cache), elsewhere a file created 0600 inside
the 0700 data folder — readable by him (and root) only. The UI tells him which one holds his key
(``describe``), so nothing is hidden.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


class ProtectedFile:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @property
    def encrypted(self) -> bool:
        return sys.platform == "win32"

    def describe(self) -> tuple[str, str]:
        """Where the secrets are, for the owner: (Chinese, English)."""
        if self.encrypted:
            return (
                f"本机加密文件 {self.path}（仅您的 Windows 账户可解密）",
                f"an encrypted file {self.path} (only your Windows account can decrypt it)",
            )
        return (
            f"本机受保护文件 {self.path}（仅您的账户可读，未加密）",
            f"a protected file {self.path} (readable by your account only, not encrypted)",
        )

    def load(self) -> dict[str, str]:
        try:
            raw = self._dpapi().load() if self.encrypted else self.path.read_text("utf-8")
        except (FileNotFoundError, OSError):
            return {}
        if not raw:
            return {}
        try:
            data = json.loads(raw)
        except ValueError:
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def save(self, values: dict[str, str]) -> None:
        text = json.dumps(values, ensure_ascii=False)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.encrypted:
            self._dpapi().save(text)
            return
        # created 0600 from the first byte (no window where it is world-readable), then renamed
        handle, temp = tempfile.mkstemp(prefix=".secrets-", dir=self.path.parent)
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def _dpapi(self) -> Any:
        from msal_extensions import FilePersistenceWithDataProtection

        return FilePersistenceWithDataProtection(str(self.path))
