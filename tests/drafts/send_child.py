"""Child process of the crash test: sends one approved draft, to be SIGKILLed mid-send.

Usage: python -m tests.drafts.send_child HOME GRAPH_URL TOKEN DRAFT_ID
"""

from __future__ import annotations

import asyncio
import sys

from core.drafts.sender import DraftSender
from core.graph.client import GraphClient, StaticToken
from core.graph.mailer import GraphMailer
from core.services import build_services


async def main(home: str, url: str, token: str, draft_id: int) -> None:
    services = build_services(home)
    client = GraphClient(url, StaticToken(token), max_attempts=1)
    sender = DraftSender(services, GraphMailer(client))
    print("ready", flush=True)
    result = await sender.send(draft_id, actor="owner")
    print(result.status, flush=True)
    await client.aclose()
    services.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
