"""Turn ``"zrtz move", {"move": "e4"}`` into the nested option payload Discord's client would send.

Option types come from the commands the bot registered (tree.sync or FakeDiscord.register_tree), exactly
as Discord knows them; values are checked the way the Discord client checks them before sending.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import payloads as P
from .roles import Role, role_payload
from .world import Attachment, Channel, Message, User

if TYPE_CHECKING:
    from .server import FakeDiscord

SUB_COMMAND, SUB_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


@dataclass
class Upload:
    """A file a test user attaches to an attachment option."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(frozen=True)
class Invoker:
    """Who runs the command, and in which guild (None: a DM): resolved members, roles and channels depend on it."""

    user: User
    guild_id: int | None


@dataclass
class BuiltCommand:
    data: dict[str, Any]  # the interaction's ``data`` object
    name: str


def _usable(cmd: dict[str, Any], in_guild: bool) -> bool:
    """Discord only offers a command where its ``contexts`` (0 guild, 1 bot DM) allow it."""
    contexts = cmd.get("contexts")
    if contexts:
        return (0 if in_guild else 1) in contexts
    return in_guild or cmd.get("dm_permission") is not False


def find_command(fake: FakeDiscord, path: list[str], in_guild: bool, kind: int = 1) -> dict[str, Any]:
    """A registered command by name and type (1 slash, 2 user menu, 3 message menu), guild scope first."""
    world = fake.world
    scopes = [world.guild_commands.get(world.guild_id, {})] if in_guild else []
    scopes.append(world.global_commands)
    for scope in scopes:
        cmd = scope.get(path[0])
        if cmd is not None and cmd.get("type", 1) == kind:
            if _usable(cmd, in_guild):
                return cmd
            where = "guild channels" if in_guild else "DMs"
            raise LookupError(f"command {path[0]!r} is not available in {where}")
    known = sorted({n for s in scopes for n in s})
    raise LookupError(
        f"command {path[0]!r} of type {kind} is not registered (known: {known}); "
        "sync the tree (await bot.tree.sync()) or call fake.register_tree(bot.tree)"
    )


def _role(fake: FakeDiscord, name: str, value: Any, by: Invoker) -> Role:
    """The role a user picks: Discord's picker offers only the roles of the guild the command runs in."""
    if by.guild_id is None:
        raise LookupError(f"option {name!r}: there are no roles to pick from in a DM")
    try:
        return fake.world.role(value, by.guild_id)
    except KeyError as error:
        raise LookupError(f"option {name!r}: {error.args[0]} (Discord's role picker offers no other)") from None


def _resolve_user(fake: FakeDiscord, user: User, resolved: dict[str, Any], by: Invoker) -> str:
    world = fake.world
    resolved.setdefault("users", {})[str(user.id)] = P.user_payload(user)
    if by.guild_id is not None and user.id in world.member_ids:
        member = P.member_payload(world, user, with_user=False, permissions=True, guild_id=by.guild_id)
        resolved.setdefault("members", {})[str(user.id)] = member
    return str(user.id)


def _resolve_role(role: Role, resolved: dict[str, Any]) -> str:
    resolved.setdefault("roles", {})[str(role.id)] = role_payload(role)
    return str(role.id)


def _convert(fake: FakeDiscord, opt: dict[str, Any], value: Any, resolved: dict[str, Any], by: Invoker) -> Any:
    kind, name = opt["type"], opt["name"]
    world = fake.world
    if kind == STRING:
        value = str(value)
        if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length of {value!r} out of bounds")
    elif kind in (INTEGER, NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"option {name!r} needs a number, got {value!r}")
        value = int(value) if kind == INTEGER else float(value)
        if opt.get("min_value") is not None and value < opt["min_value"]:
            raise ValueError(f"option {name!r}: {value} < min {opt['min_value']}")
        if opt.get("max_value") is not None and value > opt["max_value"]:
            raise ValueError(f"option {name!r}: {value} > max {opt['max_value']}")
    elif kind == BOOLEAN:
        value = bool(value)
    elif kind == USER or (kind == MENTIONABLE and not isinstance(value, Role)):
        value = _resolve_user(fake, value if isinstance(value, User) else world.user(value), resolved, by)
    elif kind == CHANNEL:
        ch = value if isinstance(value, Channel) else world.channel(value)
        resolved.setdefault("channels", {})[str(ch.id)] = P.interaction_channel_payload(world, ch, by.user)
        value = str(ch.id)
    elif kind in (ROLE, MENTIONABLE):
        value = _resolve_role(_role(fake, name, value, by), resolved)
    elif kind == ATTACHMENT:
        up = value if isinstance(value, Upload) else Upload(*value)
        att: Attachment = fake.messages_ops.new_attachment(0, up.filename, up.data, up.content_type)
        resolved.setdefault("attachments", {})[str(att.id)] = P.attachment_payload(att)
        value = str(att.id)
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r}: {value!r} is not one of the choices {[c['value'] for c in choices]}")
    return value


def build_command(
    fake: FakeDiscord,
    command: str,
    values: dict[str, Any],
    *,
    by: Invoker,
    focused: str | None = None,
) -> BuiltCommand:
    path = command.split()
    top = find_command(fake, path, by.guild_id is not None)
    schema = top.get("options", [])
    wrappers: list[dict[str, Any]] = []
    for part in path[1:]:
        sub = next((o for o in schema if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_GROUP)), None)
        if sub is None:
            raise LookupError(f"{command!r}: no subcommand {part!r}; have {[o['name'] for o in schema]}")
        wrappers.append({"type": sub["type"], "name": part})
        schema = sub.get("options", [])
    if any(o["type"] in (SUB_COMMAND, SUB_GROUP) for o in schema):
        raise LookupError(f"{command!r} is a group; name a subcommand: {[o['name'] for o in schema]}")
    by_name = {o["name"]: o for o in schema}
    unknown = set(values) - set(by_name)
    if unknown:
        raise LookupError(f"{command!r} has no option(s) {sorted(unknown)}; has {sorted(by_name)}")
    resolved: dict[str, Any] = {}
    options: list[dict[str, Any]] = []
    for opt in schema:  # keep the registered order, like Discord's client
        name = opt["name"]
        if name == focused:
            if not opt.get("autocomplete"):
                raise LookupError(f"option {name!r} of {command!r} has no autocomplete")
            options.append({"type": opt["type"], "name": name, "value": str(values.get(name, "")), "focused": True})
        elif name in values:
            value = _convert(fake, opt, values[name], resolved, by)
            options.append({"type": opt["type"], "name": name, "value": value})
        elif opt.get("required") and focused is None:
            raise ValueError(f"{command!r}: required option {name!r} missing")
    if focused is not None and focused not in by_name:
        raise LookupError(f"{command!r} has no option {focused!r}")
    for wrapper in reversed(wrappers):
        wrapper["options"] = options
        options = [wrapper]
    data: dict[str, Any] = {"id": top["id"], "name": path[0], "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if "guild_id" in top:
        data["guild_id"] = top["guild_id"]
    return BuiltCommand(data=data, name=command)


def build_context_menu(fake: FakeDiscord, name: str, target: User | Message, *, by: Invoker) -> BuiltCommand:
    """A user (type 2) or message (type 3) context-menu invocation on ``target``."""
    world = fake.world
    kind = 3 if isinstance(target, Message) else 2
    cmd = find_command(fake, [name], by.guild_id is not None, kind)
    resolved: dict[str, Any] = {}
    if isinstance(target, Message):
        resolved["messages"] = {str(target.id): P.message_payload(world, target)}
    else:
        _resolve_user(fake, target, resolved, by)
    data: dict[str, Any] = {"id": cmd["id"], "name": name, "type": kind, "target_id": str(target.id)}
    data["resolved"] = resolved
    if "guild_id" in cmd:
        data["guild_id"] = cmd["guild_id"]
    return BuiltCommand(data=data, name=name)
