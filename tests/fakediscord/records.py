"""What the test sees of one interaction: the payload sent and everything the bot answered."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import payloads as P
from .world import Attachment, Channel, Message, User

if TYPE_CHECKING:
    from .server import FakeDiscord

TYPE_NAMES = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal_submit"}


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: dict[str, Any]
    fake: FakeDiscord = field(repr=False)
    name: str = ""
    message: Message | None = None  # the message whose component was used
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    edits: int = 0
    created_at: float = field(default_factory=lambda: asyncio.get_running_loop().time())

    def describe(self) -> str:
        return f"{TYPE_NAMES.get(self.type, self.type)} {self.name!r} by {self.user.name}"

    def age(self) -> float:
        return asyncio.get_running_loop().time() - self.created_at

    def metadata(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": P.user_payload(self.user),
            "authorizing_integration_owners": {"0": str(self.fake.world.guild_id)},
        }
        if self.type == 2:
            data["name"] = self.name
        if self.message is not None:
            data["interacted_message_id"] = str(self.message.id)
        return data

    # -- state ----------------------------------------------------------------------------------------
    @property
    def responded(self) -> bool:
        return bool(self.callbacks)

    @property
    def response_type(self) -> int | None:
        """Callback type: 1 pong, 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def response_data(self) -> dict[str, Any]:
        return (self.callbacks[0].get("data") or {}) if self.callbacks else {}

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    @property
    def messages(self) -> list[Message]:
        """Original response (if any) then followups, without duplicates."""
        out = [self.original] if self.original is not None else []
        out += [m for m in self.followups if m not in out]
        return out

    @property
    def content(self) -> str:
        return self.original.content if self.original is not None else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.original.embeds if self.original is not None else []

    @property
    def files(self) -> list[Attachment]:
        return [a for m in self.messages for a in m.attachments]

    @property
    def choices(self) -> list[dict[str, Any]]:
        if self.response_type != 8:
            raise AssertionError(f"{self.describe()} was not answered with autocomplete choices: {self.callbacks}")
        return list(self.response_data.get("choices", []))

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.response_data if self.response_type == 9 else None

    # -- waiting --------------------------------------------------------------------------------------
    async def wait_response(self, timeout: float | None = None) -> InteractionRecord:
        await self.fake.notifier.wait_until(lambda: self.responded, timeout or self.fake.timeout, self.describe())
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[Message]:
        what = f"{count} followup(s) to {self.describe()}"
        await self.fake.notifier.wait_until(lambda: len(self.followups) >= count, timeout or self.fake.timeout, what)
        return self.followups

    async def wait_resolved(self, timeout: float | None = None) -> InteractionRecord:
        """After a 'thinking' defer (type 5), wait until the original was edited or a followup sent."""
        await self.wait_response(timeout)
        if self.response_type == 5:
            what = f"{self.describe()} to finish thinking"
            await self.fake.notifier.wait_until(
                lambda: self.edits or self.followups, timeout or self.fake.timeout, what
            )
        return self
