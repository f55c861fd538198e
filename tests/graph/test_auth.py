"""Sign-in plumbing that can be checked offline: token bypass, cache file, sign-out, auth errors."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path

import pytest

from core.app.graph_runtime import GraphRuntime
from core.errors import GraphAuthError, NotSignedIn
from core.events import RecordingBus, SyncStatus
from core.graph.auth import SCOPES, MsalAuth, build_persistence, build_token_provider
from core.graph.client import StaticToken
from core.services import Services
from tests.support.graph_server import GraphServer


def _fill_cache(auth: MsalAuth) -> None:
    """What MSAL writes after a sign-in: an access token and a refresh token for an account."""
    auth.cache.add(
        {
            "client_id": "00000000-aaaa-bbbb-cccc-000000000000",
            "scope": SCOPES,
            "token_endpoint": "https://login.microsoftonline.com/common/oauth2/v2.0/token",
            "response": {
                "access_token": "at-secret",
                "refresh_token": "rt-secret",
                "expires_in": 3600,
                "token_type": "Bearer",
                "scope": " ".join(SCOPES),
            },
        }
    )


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def test_signed_in_account_is_read_from_the_cache_offline(services: Services) -> None:
    """What the settings page asks ("who is signed in?") needs no network; sign-out forgets it."""
    location = services.paths.token_cache
    first = MsalAuth(
        "cid", "https://login.microsoftonline.com/common", location, allow_encrypted=False
    )
    claims = {
        "preferred_username": "owner@aurora.example",
        "oid": "o1",
        "tid": "t1",
        "iss": "https://login.microsoftonline.com/t1/v2.0",
        "aud": "cid",
        "sub": "s",
    }
    first.cache.add(
        {
            "client_id": "cid",
            "scope": SCOPES,
            "token_endpoint": "https://login.microsoftonline.com/common/oauth2/v2.0/token",
            "response": {
                "access_token": "at",
                "refresh_token": "rt",
                "expires_in": 3600,
                "token_type": "Bearer",
                "client_info": _b64({"uid": "o1", "utid": "t1"}),
                "id_token": f"{_b64({'alg': 'none'})}.{_b64(claims)}.sig",
            },
        }
    )
    later = MsalAuth(
        "cid",
        "https://login.microsoftonline.com/common",
        location,
        bus=services.bus,
        allow_encrypted=False,
    )  # e.g. after a restart
    assert later.signed_in and later.username() == "owner@aurora.example"
    later.sign_out()
    assert not later.signed_in and not location.exists()
    assert [e.code for e in services.bus.events if isinstance(e, SyncStatus)] == ["signed_out"]


def test_reserved_scopes_are_left_to_msal() -> None:
    assert "offline_access" not in SCOPES and "Mail.Send" in SCOPES


async def test_env_token_bypasses_msal(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", "preset-token")
    provider = build_token_provider(services)
    assert isinstance(provider, StaticToken)
    assert await provider.token() == "preset-token"
    monkeypatch.delenv("INQUIRY_BRIDGE_GRAPH_TOKEN")
    assert isinstance(build_token_provider(services), MsalAuth)


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_file_cache_is_0600_and_sign_out_deletes_it(services: Services) -> None:
    location = services.paths.token_cache
    location.write_text("")
    location.chmod(0o644)  # left over with loose bits: the next save tightens them
    auth = MsalAuth(
        "",
        "https://login.microsoftonline.com/common",
        location,
        bus=services.bus,
        allow_encrypted=False,
    )
    _fill_cache(auth)
    assert stat.S_IMODE(location.stat().st_mode) == 0o600
    assert "rt-secret" in location.read_text()
    assert not auth.encrypted
    # the cache never leaks into the database or the settings file
    assert b"rt-secret" not in services.paths.database.read_bytes()
    auth.sign_out()
    assert not location.exists()
    assert not Path(str(location) + ".lockfile").exists()


def test_encrypted_persistence_falls_back_to_a_file(tmp_path: Path) -> None:
    persistence, encrypted = build_persistence(tmp_path / "cache.bin")
    persistence.save("{}")
    if not encrypted:  # no secret service here: the documented 0600 file fallback
        assert stat.S_IMODE((tmp_path / "cache.bin").stat().st_mode) == 0o600


async def test_signed_out_is_a_chinese_auth_error_and_a_status_event(services: Services) -> None:
    auth = MsalAuth(
        "", "https://login.microsoftonline.com/common", services.paths.token_cache, bus=services.bus
    )
    with pytest.raises(GraphAuthError) as err:
        await auth.token()
    # never signed in here: "sign in first", not "sign in again" (issue 16)
    assert isinstance(err.value, NotSignedIn)
    assert "尚未登录微软账户" in err.value.user_message()
    assert "重新登录" not in err.value.user_message()
    bus = services.bus
    assert isinstance(bus, RecordingBus)
    [status] = [e for e in bus.events if isinstance(e, SyncStatus)]
    assert (status.source, status.ok, status.code) == ("auth", False, "not_signed_in")


async def test_a_401_from_graph_raises_sign_in_again(
    services: Services, graph: GraphServer
) -> None:
    services.settings.set("graph.base_url", graph.base_url)
    runtime = GraphRuntime(services, pipeline=_NullSink(), token_provider=StaticToken("revoked"))
    with pytest.raises(GraphAuthError):
        await runtime.mail_round()
    await runtime.aclose()
    statuses = [e for e in services.bus.events if isinstance(e, SyncStatus)]
    assert [(s.source, s.ok, s.code) for s in statuses] == [("auth", False, "graph_auth")]
    assert "重新登录" in statuses[0].detail


class _NullSink:
    async def ingest_batch(self, raws: list) -> None:
        raise AssertionError("nothing must be ingested")

    async def record_removed(self, source_id: str) -> None:
        raise AssertionError("nothing must be removed")
