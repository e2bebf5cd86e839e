/** The console's frame: the header (who is signed in, language, sign out), the sections a role may see, the screen. */
import { useEffect } from 'preact/hooks';
import { applyBrandColours } from '../branding.ts';
import type { Me } from './console-model.ts';
import { CONSOLE_LOCALES, consoleCatalogue, languageName, t, type ConsoleKey } from './console-i18n.ts';
import { Link } from './console-kit.tsx';
import { EnvelopeList } from './views/envelope-list.tsx';
import { EnvelopeDetail } from './views/envelope-detail.tsx';
import { NewEnvelope } from './views/new-envelope.tsx';
import { TemplateList, TemplateDetail } from './views/template-screens.tsx';
import { SettingsScreen } from './views/settings-screen.tsx';
import { UsersScreen } from './views/users-screen.tsx';


interface Section { path: string; label: ConsoleKey; admin: boolean }
const SECTIONS: Section[] = [
  { path: '/app/envelopes', label: 'nav.envelopes', admin: false },
  { path: '/app/envelopes/new', label: 'nav.new', admin: false },
  { path: '/app/templates', label: 'nav.templates', admin: false },
  { path: '/app/settings', label: 'nav.settings', admin: true },
  { path: '/app/users', label: 'nav.users', admin: true },
];

function Screen(props: { path: string; me: Me; onBrandingSaved: () => void }) {
  const parts = props.path.split('?')[0]?.split('/').filter(Boolean).slice(1) ?? [];
  const [section = 'envelopes', id] = parts;
  const admin = props.me.role === 'admin';
  if (section === 'envelopes' && id === 'new') return <NewEnvelope />;
  if (section === 'envelopes' && id) return <EnvelopeDetail id={decodeURIComponent(id)} />;
  if (section === 'envelopes') return <EnvelopeList />;
  if (section === 'templates' && id) return <TemplateDetail id={decodeURIComponent(id)} />;
  if (section === 'templates') return <TemplateList />;
  if (section === 'settings' && admin) return <SettingsScreen onBrandingSaved={props.onBrandingSaved} />;
  if (section === 'users' && admin) return <UsersScreen me={props.me} />;
  return (
    <div class="stack">
      <h1>{t('notFound.heading')}</h1>
      <p>{t('notFound.text')}</p>
      <Link href="/app/envelopes">{t('nav.envelopes')}</Link>
    </div>
  );
}

/** The section the path is in: the longest matching section path. */
function currentSection(path: string): string | null {
  const bare = path.split('?')[0] ?? '';
  const matches = SECTIONS.filter((s) => bare === s.path || bare.startsWith(`${s.path}/`)).sort((a, b) => b.path.length - a.path.length);
  if (bare === '/app/' || bare === '/app') return '/app/envelopes';
  return matches[0]?.path ?? null;
}

/** The brand colours on the page while the application has branding; the page's own otherwise. */
function useBrandColours(branding: Me['branding']): void {
  useEffect(() => {
    if (branding) applyBrandColours(branding);
    else for (const name of ['--brand-bg', '--brand-text', '--primary', '--primary-dark', '--focus']) document.documentElement.style.removeProperty(name);
  }, [branding?.primaryColor, branding?.textColor, branding?.accentColor]);
}

export function Shell(props: { me: Me; path: string; onSignOut: () => void; onLanguage: (tag: string) => void; onBrandingSaved: () => void }) {
  const visible = SECTIONS.filter((s) => !s.admin || props.me.role === 'admin');
  const active = currentSection(props.path);
  const catalogue = consoleCatalogue();
  const branding = props.me.branding ?? null;
  useBrandColours(branding);
  return (
    <>
      <a class="skip-link" href="#main">{t('app.skip')}</a>
      <header class={`site-header console-header${branding ? ' branded' : ''}`}>
        {branding ? (branding.logoUrl ? <img class="brand-logo" src={branding.logoUrl} alt="" height={32} /> : null) : <span class="brand" aria-hidden="true">&#9998;</span>}
        <span class="site-name">{branding?.organizationName ?? (props.me.applicationName || t('app.name'))}</span>
        <span class="whoami">{props.me.email ?? t('app.apiClient')} · {props.me.role === 'admin' ? t('role.admin') : t('role.sender')}</span>
        <select class="language-select" aria-label={t('app.language')} lang={catalogue} value={catalogue} onChange={(e) => { props.onLanguage(e.currentTarget.value); }}>
          {CONSOLE_LOCALES.map((tag) => <option key={tag} value={tag} lang={tag}>{languageName(tag)}</option>)}
        </select>
        <button type="button" class="button button-small sign-out" onClick={props.onSignOut}>{t('app.signOut')}</button>
      </header>
      <nav class="console-nav" aria-label={t('nav.label')}>
        <ul>
          {visible.map((s) => <li key={s.path}><Link href={s.path} aria-current={active === s.path ? 'page' : undefined}>{t(s.label)}</Link></li>)}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} class="screen console-screen">
        <Screen path={props.path} me={props.me} onBrandingSaved={props.onBrandingSaved} />
      </main>
    </>
  );
}
