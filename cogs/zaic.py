"""``/zaic``: stacking tiles inside a floating 8x8 area."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._game import GameCog
from cogs._new import new_command

if TYPE_CHECKING:
    from zbot import ZBot


class ZaicCog(GameCog, group_name="zaic", group_description="Zaic: stack tiles inside a floating 8x8 area"):
    game = "zaic"

    new = new_command("zaic")


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZaicCog(bot))
