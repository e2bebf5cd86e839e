/**
 * The sender console at /app/: signs its user in (console-auth.ts), then lists and manages the application's
 * envelopes, templates, settings and users through the public API on the same origin.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, whenUnauthorised } from './console-api.ts';
import { accessToken, completeSignIn, signIn, signOut, type AuthConfig } from './console-auth.ts';
import { setConsoleLocale, t } from './console-i18n.ts';
import { Loading, navigate, Problem, usePath } from './console-kit.tsx';
import type { Me } from './console-model.ts';
import { Shell } from './console-shell.tsx';

/** The identity provider the deployment names, or null where sign-in is not set up (a token given another way only). */
const authConfig = () => call<AuthConfig | null>('GET', '/v1/console/auth-config', { optional: true });

/** Who is signed in; a deployment without the `me` route treats the token as the application's (admin). */
async function whoAmI(): Promise<Me> {
  const me = await call<Me | null>('GET', '/v1/console/me', { optional: true });
  return me ?? { email: null, name: null, role: 'admin', appId: '', applicationName: '' };
}

function SignIn(props: { config: AuthConfig | null; error: unknown }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(props.error);
  const start = () => {
    if (!props.config) return;
    setBusy(true);
    signIn(props.config, window.location.pathname + window.location.search).catch((e: unknown) => { setBusy(false); setError(e); });
  };
  useEffect(() => { document.title = t('app.name'); }, []);
  return (
    <div class="screen sign-in">
      <h1>{t('signIn.heading')}</h1>
      <p class="lead">{t('signIn.lead')}</p>
      <Problem error={error} />
      {props.config
        ? <button type="button" class="button button-primary" onClick={start} disabled={busy}>{t('signIn.button')}</button>
        : <div class="notice notice-info"><p>{t('signIn.unavailable')}</p></div>}
    </div>
  );
}

function App() {
  const path = usePath();
  const [config, setConfig] = useState<AuthConfig | null | undefined>(undefined);
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [, setLanguage] = useState(0);

  useEffect(() => {
    whenUnauthorised(() => { setMe(null); });
    authConfig().then(setConfig, (e: unknown) => { setConfig(null); setError(e); });
  }, []);

  useEffect(() => {
    if (config === undefined) return;
    if (path.startsWith('/app/callback')) {
      if (!config) return;
      completeSignIn(config).then((next) => { navigate(next, true); }, (e: unknown) => { setError(e); navigate('/app/', true); });
      return;
    }
    if (me || !accessToken()) return;
    whoAmI().then(setMe, (e: unknown) => { setError(e); });
  }, [config, path, me]);

  if (config === undefined || path.startsWith('/app/callback') || (accessToken() && !me && !error)) return <div class="screen"><Loading /></div>;
  if (!me) return <SignIn config={config} error={error} />;
  const changeLanguage = (tag: string) => { void setConsoleLocale(tag).then(() => { setLanguage((n) => n + 1); }); };
  return <Shell me={me} path={path} onSignOut={() => { void signOut(config).catch(() => { window.location.assign('/app/'); }); }} onLanguage={changeLanguage} onBrandingSaved={() => { void whoAmI().then(setMe, () => undefined); }} />;
}

void setConsoleLocale().then(() => {
  const root = document.getElementById('console');
  if (!root) return;
  root.replaceChildren(); // the page's loading text, shown until the script runs
  render(<App />, root);
});
