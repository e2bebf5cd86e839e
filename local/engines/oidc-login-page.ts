/** The local OpenID provider's sign-in page: one form, labelled fields, readable at 320 px, no script. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330;display:grid;place-items:center;min-height:100vh;padding:16px}
main{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0003;padding:24px;width:100%;max-width:380px}h1{font-size:22px;margin:0 0 4px}
p{margin:0 0 16px;color:#4a5366}label{display:block;font-weight:600;margin:12px 0 4px}input{width:100%;font:inherit;padding:10px;border:1px solid #8a93a6;border-radius:6px}
input:focus,button:focus{outline:3px solid #3867d6;outline-offset:1px}button{margin-top:20px;width:100%;font:inherit;font-weight:600;padding:11px;border:0;border-radius:6px;background:#2d55b8;color:#fff;cursor:pointer}
.error{background:#fdecea;color:#8a1c12;border-radius:6px;padding:10px 12px}`;

export function loginPage(input: { action?: string; email?: string; error?: string }): string {
  const form = input.action ? `<form method="post" action="${escape(input.action)}" novalidate>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escape(input.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · e-signature service (local)</title><style>${STYLE}</style></head><body><main>
<h1>Sign in</h1><p>To the sender console of the local e-signature service.</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}${form}</main></body></html>`;
}
