import { escapeHtml, html, text } from '../i18n/messages.ts';
import type { Locale } from '../i18n/locales.ts';

/** The email inviting someone to an application's console, in `locale`: where to sign in, and the password to replace. */
export function userInvitationEmail(input: { name: string | null; applicationName: string; consoleUrl: string; email: string; temporaryPassword: string; locale: Locale }) {
  const { locale } = input;
  const app = { application: input.applicationName };
  const greeting = (as: typeof text) => (input.name ? as(locale, 'greeting', { name: input.name }) : as(locale, 'consoleInvite.hello'));
  const email = { email: input.email };
  const password = { password: input.temporaryPassword };
  return {
    subject: text(locale, 'consoleInvite.subject', app),
    text: [
      greeting(text), '', text(locale, 'consoleInvite.lead', app), '', text(locale, 'consoleInvite.signInAt', { url: input.consoleUrl }),
      text(locale, 'consoleInvite.email', email), text(locale, 'consoleInvite.password', password), '', text(locale, 'consoleInvite.choose'), '',
    ].join('\n'),
    html: [
      `<p>${greeting(html)}</p>`, `<p>${html(locale, 'consoleInvite.lead', app)}</p>`,
      `<p><a href="${escapeHtml(input.consoleUrl)}">${html(locale, 'consoleInvite.signIn')}</a></p>`,
      `<p>${html(locale, 'consoleInvite.email', email)}<br>${html(locale, 'consoleInvite.password', password)}</p>`,
      `<p>${html(locale, 'consoleInvite.choose')}</p>`,
    ].join('\n'),
  };
}
