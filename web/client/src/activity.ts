// Where the page's access comes from. Inside Discord's frame (an Activity: Discord adds frame_id and
// instance_id to the address) the Embedded App SDK signs the user in: the Discord client hands an OAuth2
// code for this application, the server exchanges it (the secret stays there), asks Discord which channel
// this instance runs in, and answers with a session token for that user on that channel's game. Anywhere
// else: the board link's `t`.

import { DiscordSDK } from "@discord/embedded-app-sdk";

export interface Access { gameId: number; token: string }

export function inDiscord(search: string = location.search): boolean {
  const query = new URLSearchParams(search);
  return query.has("frame_id") && query.has("instance_id");
}

async function json(path: string, init?: RequestInit): Promise<any> {
  const response = await fetch(path, init);
  let body: any = null;
  try { body = await response.json(); } catch { /* not JSON: the status says enough */ }
  if (!response.ok) throw new Error(body?.error ?? `${response.status} ${response.statusText}`);
  return body;
}

async function signIn(renewed: (token: string) => void): Promise<Access> {
  const { client_id: clientId } = await json("/api/activity/config");
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const session = async () => {
    const { code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    return json("/api/activity/token", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: sdk.instanceId }),
    });
  };
  const first = await session();
  await sdk.commands.authenticate({ access_token: first.access_token });
  document.body.dataset.user = first.user;
  // The session token is short-lived: a fresh one, quietly (prompt: none), well before it runs out.
  const renew = (seconds: number) => setTimeout(async () => {
    try {
      const next = await session();
      renewed(next.token);
      document.body.dataset.renewed = String(Number(document.body.dataset.renewed ?? 0) + 1);
      renew(next.expires_in);
    } catch { renew(60); } // Discord or the server away for a moment: try again in a minute
  }, Math.max(1, seconds * 0.75) * 1000);
  renew(first.expires_in);
  return { gameId: Number(first.game_id), token: first.token };
}

/** The game this page shows and the token its API calls carry (``renewed`` hears each fresh one). */
export async function boardAccess(renewed: (token: string) => void = () => {}): Promise<Access> {
  if (inDiscord()) return signIn(renewed);
  return {
    gameId: Number(location.pathname.split("/").pop()),
    token: new URLSearchParams(location.search).get("t") ?? "",
  };
}
