// The server's JSON API: one function for every request, failures as
// ApiError with the server's stable code, reason and facts (worded by the
// page: words.js errorWords). The server's English message is kept for
// the console only.

export class ApiError extends Error {
  constructor(status, code, message, reason = null, fields = {}) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.fields = fields || {};
  }
}

export async function api(method, path, body) {
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
    throw new ApiError(0, "network", String(e));
  }
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
  return data;
}
