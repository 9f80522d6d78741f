"""Guild roles and the permissions Discord computes from them.

As Discord does it: every guild has an ``@everyone`` role whose id is the guild's id; a member's guild-wide
permissions are the OR of @everyone's bits and those of each of their roles; ADMINISTRATOR means every
permission, and so does owning the guild. (The fake has no channel overwrites, so a member's permissions
are the same in every channel of the guild.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

ALL = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
MANAGE_GUILD = discord.Permissions(manage_guild=True).value
EVERYONE_DEFAULT = discord.Permissions(
    view_channel=True, create_instant_invite=True, change_nickname=True, send_messages=True,
    send_messages_in_threads=True, create_public_threads=True, create_private_threads=True, embed_links=True,
    attach_files=True, add_reactions=True, use_external_emojis=True, use_external_stickers=True,
    mention_everyone=True, read_message_history=True, use_application_commands=True, connect=True, speak=True,
    stream=True, use_voice_activation=True, request_to_speak=True, use_embedded_activities=True,
    send_voice_messages=True, send_polls=True,
).value
"""What a new server's @everyone may do: talk, post files, use commands; nothing that manages the server."""
BOT_INVITE = discord.Permissions(
    send_messages=True, send_messages_in_threads=True, create_public_threads=True, attach_files=True,
    embed_links=True, read_message_history=True,
).value
"""The permissions the README's invite link asks for; Discord gives them to the bot's own managed role."""


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    mentionable: bool = False
    bot_id: int | None = None
    """The bot whose integration manages this role (Discord creates one per bot on invite)."""

    @property
    def is_everyone(self) -> bool:
        return self.id == self.guild_id

    @property
    def mention(self) -> str:
        return "@everyone" if self.is_everyone else f"<@&{self.id}>"


def combined(everyone: Role, roles: list[Role], *, owner: bool) -> int:
    """Guild-wide permissions of a member with ``roles`` (the guild owner and administrators have all)."""
    if owner:
        return ALL
    bits = everyone.permissions
    for role in roles:
        bits |= role.permissions
    return ALL if bits & ADMINISTRATOR else bits


def role_payload(role: Role) -> dict[str, Any]:
    """A role object as Discord sends it (``color`` and the newer ``colors``)."""
    data: dict[str, Any] = {
        "id": str(role.id),
        "name": "@everyone" if role.is_everyone else role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "managed": role.bot_id is not None,
        "mentionable": role.mentionable,
        "flags": 0,
    }
    if role.bot_id is not None:
        data["tags"] = {"bot_id": str(role.bot_id)}
    return data
