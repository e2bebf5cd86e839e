import { escapeHtml } from '../i18n/messages.ts';

/** The email inviting someone to an application's console: where to sign in, and the password to replace. */
export function userInvitationEmail(input: { name: string | null; applicationName: string; consoleUrl: string; email: string; temporaryPassword: string }) {
  const greeting = input.name ? `Hello ${input.name},` : 'Hello,';
  const lead = `you have been invited to the sender console of ${input.applicationName}.`;
  return {
    subject: `Your invitation to ${input.applicationName}`,
    text: `${greeting}\n\n${lead}\n\nSign in at ${input.consoleUrl}\nEmail: ${input.email}\nTemporary password: ${input.temporaryPassword}\n\nChoose your own password when you first sign in.\n`,
    html: [
      `<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(lead)}</p>`,
      `<p><a href="${escapeHtml(input.consoleUrl)}">Sign in</a></p>`,
      `<p>Email: ${escapeHtml(input.email)}<br>Temporary password: <code>${escapeHtml(input.temporaryPassword)}</code></p>`,
      '<p>Choose your own password when you first sign in.</p>',
    ].join('\n'),
  };
}
