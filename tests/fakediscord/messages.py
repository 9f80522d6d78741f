"""Create, edit and delete messages from API bodies, keeping attachment bytes and telling the gateway."""

from __future__ import annotations

import mimetypes
from typing import TYPE_CHECKING, Any

from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES
from .http_util import UploadedFile
from .validate import message_problems
from .world import EPHEMERAL, LOADING, Attachment, Channel, Message, User, now_iso

if TYPE_CHECKING:
    from .server import FakeDiscord

# Flags a sender may set: suppress embeds, ephemeral, suppress notifications, components v2.
SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)


class MessageOps:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    def problems(self, payload: dict[str, Any], files: list[UploadedFile], *, is_edit: bool = False) -> list[str]:
        return message_problems(payload, has_files=bool(files), is_edit=is_edit)

    def new_attachment(
        self, channel_id: int, filename: str, data: bytes, content_type: str | None = None
    ) -> Attachment:
        att_id = self.world.ids.next()
        guessed = content_type
        if not guessed or guessed == "application/octet-stream":
            guessed = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        url = f"{self.fake.http_base}/attachments/{channel_id}/{att_id}/{filename}"
        att = Attachment(id=att_id, filename=filename, data=data, content_type=guessed, url=url)
        self.world.attachments[att_id] = att
        return att

    def _attachments(
        self, channel_id: int, payload: dict[str, Any], files: list[UploadedFile], existing: list[Attachment]
    ) -> list[Attachment]:
        """Apply the ``attachments`` list: ids of kept attachments plus ``files[n]`` indexes of new ones."""
        listed = payload.get("attachments")
        by_index = {f.index: f for f in files}
        if listed is None:
            kept = list(existing)
            new_specs: list[dict[str, Any]] = [{"id": f.index} for f in files]
        else:
            old = {a.id: a for a in existing}
            kept = [old[int(a["id"])] for a in listed if int(a["id"]) in old]
            new_specs = [a for a in listed if int(a["id"]) in by_index and int(a["id"]) not in old]
        for spec in new_specs:
            up = by_index[int(spec["id"])]
            att = self.new_attachment(channel_id, spec.get("filename") or up.filename, up.data, up.content_type)
            att.description = spec.get("description")
            kept.append(att)
        return kept

    async def create(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        webhook_id: int | None = None,
        interaction_metadata: dict[str, Any] | None = None,
        msg_type: int = 0,
        extra_flags: int = 0,
    ) -> Message:
        ref = payload.get("message_reference")
        msg = self.world.add_message(
            channel,
            author,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=((payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags,
            type=19 if ref and msg_type == 0 else msg_type,
            webhook_id=webhook_id,
            interaction_metadata=interaction_metadata,
            message_reference=ref,
        )
        msg.attachments = self._attachments(channel.id, payload, files, [])
        if "poll" in payload:
            msg.extra["poll"] = payload["poll"]
        if channel.is_thread and channel.archived and not channel.locked:
            channel.archived = False
        await self.fake.gateway.dispatch_message("MESSAGE_CREATE", msg)
        return msg

    async def edit(self, msg: Message, payload: dict[str, Any], files: list[UploadedFile]) -> Message:
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if payload.get("flags") is not None:
            msg.flags = (msg.flags & EPHEMERAL) | (payload["flags"] & SETTABLE_FLAGS & ~EPHEMERAL)
        if "attachments" in payload or files:
            msg.attachments = self._attachments(msg.channel_id, payload, files, msg.attachments)
        msg.flags &= ~LOADING
        msg.edited_timestamp = now_iso()
        await self.fake.gateway.dispatch_message("MESSAGE_UPDATE", msg)
        self.fake.notifier.notify()
        return msg

    async def delete(self, msg: Message) -> None:
        self.world.delete_message(msg)
        if msg.ephemeral:
            return
        channel = self.world.channels[msg.channel_id]
        data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self.fake.gateway.dispatch("MESSAGE_DELETE", data, DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES)
