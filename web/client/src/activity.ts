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

async function signIn(): Promise<Access> {
  const { client_id: clientId } = await json("/api/activity/config");
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const session = await json("/api/activity/token", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  await sdk.commands.authenticate({ access_token: session.access_token });
  document.body.dataset.user = session.user;
  return { gameId: Number(session.game_id), token: session.token };
}

/** The game this page shows and the token its API calls carry. */
export async function boardAccess(): Promise<Access> {
  if (inDiscord()) return signIn();
  return {
    gameId: Number(location.pathname.split("/").pop()),
    token: new URLSearchParams(location.search).get("t") ?? "",
  };
}
