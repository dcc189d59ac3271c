// The engine in the page: the rules and the search of the Rust crates in
// WebAssembly, in a Web Worker (engine-worker.js). Without a network the
// page plays, sows, hints and analyses with it (local.js). Requests and
// answers have the shapes of the server's API (crates/awale-wasm).

import { ApiError } from "./api-error.js";

let worker = null;
let next = 1;
const waiting = new Map();

function start() {
  worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    const { id, answer, failed } = event.data;
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (failed !== undefined) {
      w.reject(new ApiError(0, "engine", failed));
      return;
    }
    const value = JSON.parse(answer);
    if (value && value.error) w.reject(new ApiError(422, value.error, value.message));
    else w.resolve(value);
  };
  worker.onerror = (event) => {
    // The module did not load: every request waiting fails.
    for (const w of waiting.values()) w.reject(new ApiError(0, "engine", event.message || "engine"));
    waiting.clear();
    worker = null;
  };
}

// The answer to `request` ({op, ...}): resolves with the engine's answer,
// or rejects with an ApiError carrying the engine's code.
export function ask(request) {
  if (!worker) start();
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, request: JSON.stringify(request) });
  });
}

// Ends the searches under way (a new game started while the computer
// thinks): their requests fail with `stopped`; the next request starts a
// fresh worker.
export function reset() {
  if (!worker) return;
  worker.terminate();
  worker = null;
  for (const w of waiting.values()) w.reject(new ApiError(0, "stopped", "stopped"));
  waiting.clear();
}
