"""JSON payload builders; every key discord.py indexes with ``data[...]`` must be present."""

from __future__ import annotations

import re
from typing import Any

import discord

from .roles import role_payload
from .world import DM, Attachment, Channel, Message, User, World, now_iso

ALL_PERMISSIONS = str(discord.Permissions.all().value)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MENTION_RE = re.compile(r"<@!?(\d+)>")
ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": "0",
        "global_name": user.name,
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
    }


def member_payload(world: World, user: User, *, with_user: bool = True, permissions: bool = False,
                   guild_id: int | None = None) -> dict[str, Any]:
    """A guild member: their role ids (never @everyone) and, in interactions, their computed permissions."""
    data: dict[str, Any] = {
        "roles": [str(r.id) for r in world.member_roles(user, guild_id)],
        "joined_at": now_iso(),
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": None,
        "avatar": None,
    }
    if with_user:
        data["user"] = user_payload(user)
    if permissions:
        data["permissions"] = str(world.permissions_of(user, guild_id))
    return data


def roles_payload(world: World, guild_id: int | None = None) -> list[dict[str, Any]]:
    """Every role of the guild, @everyone first (``GET /guilds/{id}/roles`` and GUILD_CREATE)."""
    return [role_payload(r) for r in world.guild_roles(guild_id)]


def thread_metadata(ch: Channel) -> dict[str, Any]:
    return {
        "archived": ch.archived,
        "locked": ch.locked,
        "invitable": ch.invitable,
        "auto_archive_duration": ch.auto_archive_duration,
        "archive_timestamp": now_iso(),
        "create_timestamp": now_iso(),
    }


def channel_payload(world: World, ch: Channel) -> dict[str, Any]:
    last = ch.messages[-1].id if ch.messages else None
    base: dict[str, Any] = {"id": str(ch.id), "type": ch.type, "last_message_id": str(last) if last else None}
    if ch.type == DM:
        base["recipients"] = [user_payload(world.users[ch.recipient_id or 0])]
        return base
    base.update(
        {
            "guild_id": str(ch.guild_id),
            "name": ch.name,
            "position": ch.position,
            "permission_overwrites": [],
            "nsfw": False,
            "rate_limit_per_user": 0,
            "parent_id": str(ch.parent_id) if ch.parent_id else None,
            "topic": None,
        }
    )
    if ch.is_thread:
        base.update(
            {
                "owner_id": str(ch.owner_id),
                "message_count": len(ch.messages),
                "member_count": len(ch.member_ids),
                "total_message_sent": len(ch.messages),
                "thread_metadata": thread_metadata(ch),
                "flags": 0,
            }
        )
    return base


def interaction_channel_payload(world: World, ch: Channel, user: User) -> dict[str, Any]:
    """The ``channel`` object inside interactions also carries the invoker's permissions in it."""
    data = channel_payload(world, ch)
    if not ch.is_dm:
        data["permissions"] = str(world.permissions_of(user, ch.guild_id))
    return data


def guild_payload(world: World, guild_id: int | None = None) -> dict[str, Any]:
    guild_id = guild_id or world.guild_id
    return {
        "id": str(guild_id),
        "name": world.guild_name_of(guild_id),
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(world.owner.id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": roles_payload(world, guild_id),
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }


def guild_create_payload(world: World, guild_id: int | None = None) -> dict[str, Any]:
    guild_id = guild_id or world.guild_id
    data = guild_payload(world, guild_id)
    data.update(
        {
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(world.member_ids),
            "members": [member_payload(world, world.users[uid], guild_id=guild_id) for uid in world.member_ids],
            "channels": [channel_payload(world, c) for c in world.text_channels(guild_id)],
            "threads": [channel_payload(world, t) for t in world.threads(guild_id) if not t.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
    )
    return data


def attachment_payload(att: Attachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(att.id),
        "filename": att.filename,
        "size": att.size,
        "url": att.url,
        "proxy_url": att.url,
        "content_type": att.content_type,
    }
    if att.description is not None:
        data["description"] = att.description
    return data


def message_payload(world: World, msg: Message, *, hide_content: bool = False) -> dict[str, Any]:
    """``hide_content`` mimics a bot without the MESSAGE_CONTENT intent seeing others' messages."""
    channel = world.channels[msg.channel_id]
    author = world.users[msg.author_id]
    mentions = [world.users[int(i)] for i in MENTION_RE.findall(msg.content) if int(i) in world.users]
    data: dict[str, Any] = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "author": user_payload(author),
        "content": "" if hide_content else msg.content,
        "timestamp": msg.timestamp,
        "edited_timestamp": msg.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user_payload(u) for u in mentions],
        "mention_roles": [i for i in ROLE_MENTION_RE.findall(msg.content) if int(i) in world.roles],
        "attachments": [] if hide_content else [attachment_payload(a) for a in msg.attachments],
        "embeds": [] if hide_content else msg.embeds,
        "components": [] if hide_content else msg.components,
        "pinned": msg.pinned,
        "type": msg.type,
        "flags": msg.flags,
        "reactions": [
            {"emoji": {"id": None, "name": e}, "count": len(us), "me": world.bot.id in us, "burst_colors": []}
            for e, us in msg.reactions.items()
            if us
        ],
    }
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
        if msg.webhook_id is None:
            data["member"] = member_payload(world, author, with_user=False, guild_id=channel.guild_id)
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
        data["application_id"] = str(world.application_id)
    if msg.interaction_metadata is not None:
        data["interaction_metadata"] = msg.interaction_metadata
    if msg.message_reference is not None:
        data["message_reference"] = msg.message_reference
    if msg.thread_id is not None and msg.thread_id in world.channels:
        data["thread"] = channel_payload(world, world.channels[msg.thread_id])
    data.update(msg.extra)
    return data


def application_payload(world: World) -> dict[str, Any]:
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(world.owner),
        "verify_key": "0" * 64,
        "flags": 0,
        "team": None,
        "summary": "",
        "bot": user_payload(world.bot),
    }


def ready_payload(world: World, session_id: str, resume_url: str, guild_ids: list[int] | None = None,
                  shard: tuple[int, int] = (0, 1)) -> dict[str, Any]:
    """READY for one connection: the guilds on its shard (every guild when unsharded)."""
    return {
        "v": 10,
        "user": {**user_payload(world.bot), "verified": True, "mfa_enabled": False},
        "guilds": [{"id": str(g), "unavailable": True} for g in (world.guilds if guild_ids is None else guild_ids)],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "application": {"id": str(world.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "shard": list(shard),
    }
