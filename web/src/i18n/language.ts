/**
 * Which language the page is in (decision 39): the one the signer picked in the switch (kept for the browser
 * session), else the signer's own locale from the API (the signing context, the download status), else the browser's.
 * The switch lists every catalogue by its own name ("Deutsch", "日本語") and starts the page again in the new language.
 */
import { h } from '../dom.ts';
import { locale, setLocale, t } from './i18n.ts';
import { LOCALES, resolveLocale } from './locales.ts';

const CHOICE = 'esign.locale';

function chosen(): string | null {
  try {
    return sessionStorage.getItem(CHOICE);
  } catch {
    return null; // storage blocked: the switch still works for this page
  }
}

const browserLanguages = () => (navigator.languages.length > 0 ? navigator.languages : [navigator.language]);

/** The page's words outside the screens (the HTML's English is what shows before the script runs), and the switch. */
function localiseChrome(onSwitch: () => void): void {
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t('page.skipLink');
  const name = document.querySelector('.site-name');
  // A branded page names the organisation instead (web/src/branding.ts)
  if (name && !name.hasAttribute('data-branded')) name.textContent = t('page.siteName');
  const header = document.querySelector('.site-header');
  if (!header) return;
  const current = resolveLocale([locale()]).catalogue;
  const select = h('select', {
    class: 'language-select', 'aria-label': t('page.language'), lang: current,
    onchange: (event: Event) => {
      const tag = (event.target as HTMLSelectElement).value;
      try {
        sessionStorage.setItem(CHOICE, tag);
      } catch { /* storage blocked: this page only */ }
      void setLocale([tag]).then(() => { localiseChrome(onSwitch); onSwitch(); });
    },
  }, Object.keys(LOCALES).map((tag) => h('option', { value: tag, lang: tag, selected: tag === current }, nameOf(tag))));
  header.querySelector('.language-select')?.remove();
  header.append(select);
}

/** A language's name in that language, capitalised as a menu item ("Français", "Português (Brasil)"). */
function nameOf(tag: string): string {
  const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}

let restart: () => void = () => undefined;

/** Starts the page in the session's choice or the browser's languages; `start` runs again after a switch. */
export async function startPage(start: () => void): Promise<void> {
  restart = start;
  const choice = chosen();
  await setLocale(choice ? [choice] : browserLanguages());
  localiseChrome(() => { restart(); });
  start();
}

/**
 * The signer's own locale, once the API has said it: the page changes to it unless the signer chose one in the switch.
 * Resolves to true when the language changed (the caller shows its screen again).
 */
export async function adoptLocale(signerLocale: string): Promise<boolean> {
  if (chosen() !== null) return false;
  const wanted = resolveLocale([signerLocale]);
  if (wanted.catalogue === resolveLocale([locale()]).catalogue) return false;
  await setLocale([signerLocale]);
  localiseChrome(() => { restart(); });
  return true;
}
