/** The local OpenID provider's sign-in page: one form, labelled fields, readable at 320 px, no script. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330;display:grid;place-items:center;min-height:100vh;padding:16px}
main{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0003;padding:24px;width:100%;max-width:380px}h1{font-size:22px;margin:0 0 4px}
p{margin:0 0 16px;color:#4a5366;overflow-wrap:anywhere}label{display:block;font-weight:600;margin:12px 0 4px}input{width:100%;font:inherit;padding:10px;border:1px solid #8a93a6;border-radius:6px}
input:focus,button:focus{outline:3px solid #3867d6;outline-offset:1px}button{margin-top:20px;width:100%;font:inherit;font-weight:600;padding:11px;border:0;border-radius:6px;background:#2d55b8;color:#fff;cursor:pointer}
.error{background:#fdecea;color:#8a1c12;border-radius:6px;padding:10px 12px}`;

/** The first sign-in of an invited user: their own password in place of the temporary one (Cognito's NEW_PASSWORD_REQUIRED). */
export function newPasswordPage(input: { action: string; email: string; error?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Choose your password · e-signature service (local)</title><style>${STYLE}</style></head><body><main>
<h1>Choose your password</h1><p>${escape(input.email)} signs in for the first time: replace the temporary password with your own (at least ${String(MIN_PASSWORD)} characters).</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}<form method="post" action="${escape(input.action)}" novalidate>
<input type="hidden" name="step" value="new-password">
<label for="new-password">New password</label><input id="new-password" name="newPassword" type="password" autocomplete="new-password" required autofocus minlength="${String(MIN_PASSWORD)}">
<label for="confirm-password">New password again</label><input id="confirm-password" name="confirmPassword" type="password" autocomplete="new-password" required>
<button type="submit">Save and sign in</button></form></main></body></html>`;
}

/** As the user pool's policy asks (infra/constructs/console-sign-in.ts), in length. */
export const MIN_PASSWORD = 12;

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
