// The engine's worker: the rules and the search of the Rust crates
// (crates/awale-wasm, built to awale.wasm) run here, away from the page, so
// that the board never freezes while the computer thinks. A message
// {id, request} is answered with {id, answer}: the request and the answer
// are JSON text, passed through the module's memory (see host.rs).

const ready = (async () => {
  const url = new URL("../awale.wasm", import.meta.url);
  let instance = null;
  const memory = () => new Uint8Array(instance.exports.memory.buffer);
  const imports = {
    env: {
      now_ms: () => performance.now(),
      random_fill: (ptr, len) => crypto.getRandomValues(memory().subarray(ptr, ptr + len)),
    },
  };
  const response = await fetch(url);
  if (!response.ok) throw new Error(`awale.wasm: ${response.status}`);
  ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports));
  return (request) => {
    const bytes = new TextEncoder().encode(request);
    const at = instance.exports.input(bytes.length);
    memory().set(bytes, at);
    const length = instance.exports.call();
    const from = instance.exports.output();
    return new TextDecoder().decode(memory().slice(from, from + length));
  };
})();

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    const call = await ready;
    self.postMessage({ id, answer: call(request) });
  } catch (e) {
    self.postMessage({ id, failed: String(e) });
  }
};
