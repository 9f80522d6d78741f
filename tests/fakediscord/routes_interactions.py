"""Interaction callbacks, followup/original-response webhooks and application-command sync."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads as P
from .http_util import UploadedFile, empty_response, error_response, invalid_form, json_response, read_body
from .validate import choices_problems, modal_problems
from .world import EPHEMERAL, LOADING, Message

if TYPE_CHECKING:
    from .records import InteractionRecord
    from .server import FakeDiscord

UNKNOWN_WEBHOOK, UNKNOWN_MESSAGE, UNKNOWN_INTERACTION, ALREADY_ACKED = 10015, 10008, 10062, 40060
PONG, MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE_RESULT, MODAL = 1, 4, 5, 6, 7, 8, 9
LAUNCH_ACTIVITY = 12
# interaction type -> callback types Discord accepts for it
ALLOWED = {1: {PONG}, 2: {MESSAGE, DEFERRED, MODAL, LAUNCH_ACTIVITY},
           3: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, MODAL, LAUNCH_ACTIVITY},
           4: {AUTOCOMPLETE_RESULT}, 5: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE}}  # fmt: skip


class InteractionRoutes:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    def add_to(self, r: web.UrlDispatcher, api: str) -> None:
        hook = "/webhooks/{app_id}/{token}"
        routes = [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", hook, self.followup),
            ("GET", hook + "/messages/{message_id}", self.get_response),
            ("PATCH", hook + "/messages/{message_id}", self.edit_response),
            ("DELETE", hook + "/messages/{message_id}", self.delete_response),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/commands", self.post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.no_permissions),
        ]
        for method, path, handler in routes:
            r.add_route(method, api + path, handler)

    def _record(self, request: web.Request) -> InteractionRecord | None:
        rec = self.fake.interactions.get(request.match_info["token"])
        if rec is None:
            return None
        if "app_id" in request.match_info and int(request.match_info["app_id"]) != self.world.application_id:
            return None
        return rec

    # -- initial response -----------------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None or rec.id != int(request.match_info["interaction_id"]):
            return error_response(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body = await read_body(request)
        cb: dict[str, Any] = body.json or {}
        kind, data = cb.get("type"), cb.get("data") or {}
        problem = self._callback_problem(rec, kind)
        if problem is not None:
            self.fake.record_error(f"interaction {rec.describe()}: {problem[2]}")
            return error_response(*problem)
        if kind in (MESSAGE, UPDATE) and (problems := self.fake.messages_ops.problems(data, body.files, is_edit=True)):
            return self._reject(rec, problems)
        if kind == MESSAGE and not (data.get("content") or data.get("embeds") or data.get("components") or body.files):
            return self._reject(rec, ["cannot send an empty message"])
        if kind == AUTOCOMPLETE_RESULT and (problems := choices_problems(data.get("choices", []))):
            return self._reject(rec, problems)
        if kind == MODAL and (problems := modal_problems(data)):
            return self._reject(rec, problems)
        if kind == LAUNCH_ACTIVITY:
            return self._launch(rec, cb)
        message = await self._apply_callback(rec, kind, data, body.files)
        rec.callbacks.append(cb)
        self.fake.notifier.notify()
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": kind == DEFERRED,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": P.message_payload(self.world, message)}
        return json_response(answer)

    def _launch(self, rec: InteractionRecord, cb: dict[str, Any]) -> web.Response:
        """LAUNCH_ACTIVITY: the Activity starts (or is joined) in the interaction's channel; no message."""
        activities = self.fake.activities
        if (problem := activities.launch_problem(rec, cb.get("data"))) is not None:
            self.fake.record_error(f"interaction {rec.describe()}: {problem}")
            return error_response(400, 50035, problem)
        launch = activities.launch(rec)
        rec.callbacks.append(cb)
        self.fake.notifier.notify()
        return json_response({"interaction": {"id": str(rec.id), "type": rec.type, "activity_instance_id":
                                              launch.instance_id, "response_message_loading": False,
                                              "response_message_ephemeral": False},
                              "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": launch.instance_id}}})

    def _callback_problem(self, rec: InteractionRecord, kind: Any) -> tuple[int, int, str] | None:
        if rec.callbacks:
            return 400, ALREADY_ACKED, "Interaction has already been acknowledged"
        if kind not in ALLOWED.get(rec.type, set()):
            return 400, 50035, f"callback type {kind} is not valid for interaction type {rec.type}"
        if self.fake.callback_deadline is not None and rec.age() > self.fake.callback_deadline:
            return 404, UNKNOWN_INTERACTION, f"Unknown interaction (answered after {rec.age():.1f}s)"
        return None

    def _reject(self, rec: InteractionRecord, problems: list[str]) -> web.Response:
        self.fake.record_error(f"interaction {rec.describe()}: rejected response {problems}")
        return invalid_form(problems)

    async def _apply_callback(
        self, rec: InteractionRecord, kind: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> Message | None:
        ops = self.fake.messages_ops
        if kind in (MESSAGE, DEFERRED):
            extra = LOADING | (data.get("flags", 0) & EPHEMERAL) if kind == DEFERRED else 0
            payload = {"flags": data.get("flags", 0) & EPHEMERAL} if kind == DEFERRED else data
            rec.original = await ops.create(
                rec.channel,
                self.world.bot,
                payload,
                files if kind == MESSAGE else [],
                webhook_id=self.world.application_id,
                interaction_metadata=rec.metadata(),
                msg_type=20 if rec.type == 2 else 0,
                extra_flags=extra,
            )
            return rec.original
        if kind in (DEFERRED_UPDATE, UPDATE):
            rec.original = rec.message
            if kind == UPDATE and rec.message is not None:
                await ops.edit(rec.message, data, files)
            return rec.message if kind == UPDATE else None
        return None

    # -- followups and @original ----------------------------------------------------------------------
    async def followup(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None or not rec.callbacks:
            if rec is not None:
                self.fake.record_error(f"interaction {rec.describe()}: followup before the initial response")
            return error_response(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        body = await read_body(request)
        payload = body.json or {}
        if problems := self.fake.messages_ops.problems(payload, body.files):
            return self._reject(rec, problems)
        original = rec.original
        if original is not None and not original.deleted and original.flags & LOADING \
                and rec.response_type == DEFERRED:  # once the placeholder is deleted, followups are new messages
            msg = await self.fake.messages_ops.edit(original, payload, body.files)  # first followup fills "thinking"
        else:
            msg = await self.fake.messages_ops.create(
                rec.channel,
                self.world.bot,
                payload,
                body.files,
                webhook_id=self.world.application_id,
                interaction_metadata=rec.metadata(),
            )
        rec.followups.append(msg)
        self.fake.notifier.notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(P.message_payload(self.world, msg))
        return empty_response()

    def _response_message(self, request: web.Request, rec: InteractionRecord) -> Message | None:
        raw = request.match_info["message_id"]
        if raw == "@original":
            return rec.original if rec.original is not None and not rec.original.deleted else None
        return next((m for m in rec.followups if m.id == int(raw) and not m.deleted), None)

    async def get_response(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None:
            return error_response(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        msg = self._response_message(request, rec)
        if msg is None:
            return error_response(404, UNKNOWN_MESSAGE, "Unknown Message")
        return json_response(P.message_payload(self.world, msg))

    async def edit_response(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None:
            return error_response(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        msg = self._response_message(request, rec)
        if msg is None:
            self.fake.record_error(f"interaction {rec.describe()}: edit of missing response {request.path}")
            return error_response(404, UNKNOWN_MESSAGE, "Unknown Message")
        body = await read_body(request)
        if problems := self.fake.messages_ops.problems(body.json or {}, body.files, is_edit=True):
            return self._reject(rec, problems)
        await self.fake.messages_ops.edit(msg, body.json or {}, body.files)
        rec.edits += 1
        return json_response(P.message_payload(self.world, msg))

    async def delete_response(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        msg = None if rec is None else self._response_message(request, rec)
        if msg is None:
            return error_response(404, UNKNOWN_MESSAGE, "Unknown Message")
        await self.fake.messages_ops.delete(msg)
        self.fake.notifier.notify()
        return empty_response()

    # -- application commands -------------------------------------------------------------------------
    def _store(self, request: web.Request) -> tuple[int | None, dict[str, dict[str, Any]]]:
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None, self.world.global_commands
        return int(gid), self.world.guild_commands.setdefault(int(gid), {})

    def _stored(self, guild_id: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        kind = cmd.get("type", 1)
        key = (guild_id, cmd["name"], kind)
        cmd_id = self.world.command_ids.setdefault(key, self.world.ids.next())
        out = {"description": "", "options": [], "default_member_permissions": None, "nsfw": False, **cmd}
        out.update(id=str(cmd_id), application_id=str(self.world.application_id), version=str(cmd_id), type=kind)
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(list(self._store(request)[1].values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id, store = self._store(request)
        store.clear()
        for cmd in (await read_body(request)).json or []:
            store[cmd["name"]] = self._stored(guild_id, cmd)
        self.fake.notifier.notify()
        return json_response(list(store.values()))

    async def post_command(self, request: web.Request) -> web.Response:
        guild_id, store = self._store(request)
        cmd = self._stored(guild_id, (await read_body(request)).json)
        store[cmd["name"]] = cmd
        return json_response(cmd, 201)

    async def no_permissions(self, request: web.Request) -> web.Response:
        return json_response([])
