// The server's JSON API: one function for every request, failures as
// ApiError with the server's stable code, reason and facts (worded by the
// page: words.js errorWords; the server's English message is kept for the
// console only). The games kept in the browser, and whatever the page can
// do without a network, are answered by local.js in the same shapes.

import { ApiError } from "./api-error.js";
import * as local from "./local.js";

// What `api("GET", path)` answers, or undefined when it fails, the failure
// given to `failed` (which shows it).
export async function fetched(path, failed) {
  try {
    return await api("GET", path);
  } catch (e) {
    failed(e);
    return undefined;
  }
}

// The JSON a server-sent event `ev` carries; undefined when it is not JSON
// (the event is then passed over).
export function eventJson(ev) {
  try {
    return JSON.parse(ev.data);
  } catch (e) {
    return undefined;
  }
}

// Whether the server answered the last request sent to it (false once a
// request could not reach it: the page plays with its own engine).
let reached = true;

export function serverReached() {
  return reached;
}

export async function api(method, path, body) {
  const mine = await local.own(method, path, body);
  if (mine !== undefined && mine !== null) return mine;
  if (mine === null) {
    // A game played here and sent to the server since: the server's copy.
    const id = await local.uploadedAs(path.split("/")[3]);
    return api(method, `/api/games/${id}`, body);
  }
  // The games played offline go first, so that the list has them.
  if (method === "GET" && path === "/api/games") await local.sync();
  let res;
  try {
    // Every change goes as JSON, even without a body: the server refuses
    // any other (no form or text/plain request can pass for the page's).
    const changes = method !== "GET" && method !== "HEAD";
    res = await fetch(path, {
      method,
      headers: changes ? { "Content-Type": "application/json" } : {},
      body: body !== undefined ? JSON.stringify(body) : changes ? "{}" : undefined,
    });
  } catch (e) {
    reached = false;
    const answer = await local.offline(method, path, body);
    if (answer !== undefined) return answer;
    throw new ApiError(0, "network", String(e));
  }
  reached = true;
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || "other", (data && data.message) || res.statusText,
      (data && data.reason) || null, (data && data.fields) || {});
  }
  if (method === "GET" && path === "/api/games" && data && Array.isArray(data.games)) {
    // The games played here without a network and not sent yet come first.
    data.games = (await local.pendingSummaries()).concat(data.games);
  }
  return data;
}
