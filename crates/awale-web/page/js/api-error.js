// A failed request as the page holds it: the HTTP status, the server's
// stable code, its reason and facts (worded by words.js errorWords), and
// the server's English message (for the console only). Its own module, so
// that what answers in the server's stead (local.js, engine.js) makes the
// same failures without importing the API it stands in for.

export class ApiError extends Error {
  constructor(status, code, message, reason = null, fields = {}) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.fields = fields || {};
  }
}
