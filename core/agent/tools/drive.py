"""A customer's OneDrive folder: list its files, read one, create the folder.

Through ``CustomerDrive`` only (``ToolContext.drive``): it lists from the last sync, downloads
one file to read it (text, CSV, PDF, Excel — ``core.drive.files``' extractors) and creates the
folder the way the watcher does. Creating a folder is a write: it is audited as ``agent``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from core.agent.tools.args import data_block, int_arg, iso_local, obj, text_arg
from core.agent.tools.base import Tool, ToolContext, ToolError, audit
from core.drafts.attachments import human_size


async def list_customer_files(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    folder_id, folder_name = await ctx.drive.folder_of(inquiry_id)
    if not folder_id:
        return (
            f"NO_FOLDER — inquiry {inquiry_id} has no OneDrive folder linked. "
            "create_customer_folder can make one if the owner wants."
        )
    files = await ctx.drive.files(inquiry_id)
    listed = [
        {
            "item_id": f.item_id,
            "path": f.path,
            "size": human_size(int(f.size or 0)),
            "modified": iso_local(f.last_modified),
        }
        for f in files
    ]
    return data_block(
        f"FOLDER 「{folder_name}」: {len(listed)} files (as of the last OneDrive sync)",
        {"folder": folder_name, "files": listed},
    )


async def read_customer_file(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    item = text_arg(args, "item_id")
    found, text = await ctx.drive.read(inquiry_id, item)
    if not text.strip():
        return (
            f"FILE_HAS_NO_TEXT — 「{found.path}」 could not be read as text (only txt, csv, "
            "PDF with a text layer and Excel can). Do not guess its content."
        )
    return data_block(
        f"FILE 「{found.path}」 ({human_size(int(found.size or 0))}), its text:",
        {"path": found.path, "text": text},
    )


async def create_customer_folder(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    folder_id, created = await ctx.drive.ensure_folder(inquiry_id)
    if folder_id is None:
        raise ToolError(
            "FOLDER_NOT_CREATED — no stage folder is known yet (OneDrive not synced) or the "
            "inquiry is not a customer with a name"
        )
    _id, name = await ctx.drive.folder_of(inquiry_id)
    if not created:
        return f"FOLDER_EXISTS — inquiry {inquiry_id} already has the folder 「{name}」; nothing created"
    now = ctx.services.clock.now()

    def record(session: Session) -> None:
        audit(session, "inquiry", inquiry_id, "drive_folder_created", now, folder=name)

    await ctx.services.store.run(record)
    return f"FOLDER_CREATED 「{name}」 in OneDrive for inquiry {inquiry_id}"


TOOLS = (
    Tool(
        "list_customer_files",
        "The files in a customer's OneDrive folder (plans, photos, quotes), with item ids.",
        obj({"inquiry_id": {"type": "integer"}}, ["inquiry_id"]),
        list_customer_files,
        "正在查看 OneDrive 文件…",
        "Listing OneDrive files…",
        reads_customer_content=True,
    ),
    Tool(
        "read_customer_file",
        "Read one file of a customer's OneDrive folder as text (txt, csv, PDF, Excel).",
        obj(
            {
                "inquiry_id": {"type": "integer"},
                "item_id": {"type": "string", "description": "item_id or path from the list"},
            },
            ["inquiry_id", "item_id"],
        ),
        read_customer_file,
        "正在读取文件…",
        "Reading the file…",
        reads_customer_content=True,
    ),
    Tool(
        "create_customer_folder",
        "Create the customer's folder in OneDrive (in the stage folder of his stage) when "
        "the owner asks; does nothing if he has one.",
        obj({"inquiry_id": {"type": "integer"}}, ["inquiry_id"]),
        create_customer_folder,
        "正在创建 OneDrive 文件夹…",
        "Creating the OneDrive folder…",
        writes=frozenset({"folder"}),
        backs=frozenset({"saved"}),
    ),
)
