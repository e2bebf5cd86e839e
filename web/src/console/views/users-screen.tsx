/** The application's console users: invite by email as admin or sender, change a role, remove. */
import { useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { CONSOLE_LOCALES, consoleCatalogue, languageName, t } from '../console-i18n.ts';
import { Dialog, Done, Heading, Loading, Problem, useAction, useLoad } from '../console-kit.tsx';
import type { Me } from '../console-model.ts';

interface User { userId: string; email: string; name: string | null; role: 'admin' | 'sender'; status?: string }
type Role = User['role'];

export function UsersScreen(props: { me: Me }) {
  const loaded = useLoad(() => call<{ data: User[] } | User[] | null>('GET', '/v1/console/users', { optional: true }), []);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('sender');
  // The invitation is written in the console's language unless the admin picks the invitee's
  const [locale, setLocale] = useState(consoleCatalogue());
  const [removing, setRemoving] = useState<User | null>(null);
  const action = useAction();
  const users = Array.isArray(loaded.data) ? loaded.data : loaded.data?.data ?? [];
  const invite = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await call('POST', '/v1/console/users', { json: { email: email.trim(), name: name.trim() || undefined, role, locale } });
      setEmail('');
      setName('');
      loaded.reload();
      return t('users.invited', { email: email.trim() });
    });
  };
  const changeRole = (user: User, next: Role) => {
    void action.run(async () => {
      await call('PUT', `/v1/console/users/${encodeURIComponent(user.userId)}`, { json: { role: next } });
      loaded.reload();
      return t('users.roleChanged', { email: user.email });
    });
  };
  const remove = () => {
    const user = removing;
    if (!user) return;
    void action.run(async () => {
      await call('DELETE', `/v1/console/users/${encodeURIComponent(user.userId)}`);
      setRemoving(null);
      loaded.reload();
      return t('users.removed', { email: user.email });
    });
  };
  return (
    <div class="stack">
      <Heading>{t('users.heading')}</Heading>
      <Problem error={loaded.error ?? action.error} />
      <Done message={action.done} />
      {loaded.loading && !loaded.data ? <Loading /> : null}
      {!loaded.loading && loaded.data === null && !loaded.error ? <p class="notice notice-info">{t('users.unavailable')}</p> : null}
      {users.length > 0 ? (
        <table class="records">
          <caption class="visually-hidden">{t('users.heading')}</caption>
          <thead><tr><th scope="col">{t('users.email')}</th><th scope="col">{t('users.name')}</th><th scope="col">{t('users.role')}</th><th scope="col"><span class="visually-hidden">{t('users.actions')}</span></th></tr></thead>
          <tbody>
            {users.map((u) => {
              const self = u.email === props.me.email;
              return (
                <tr key={u.userId}>
                  <th scope="row">{u.email}</th>
                  <td data-label={t('users.name')}>{u.name ?? ''}</td>
                  <td data-label={t('users.role')}>
                    <select aria-label={t('users.roleOf', { email: u.email })} value={u.role} disabled={self || action.busy} onChange={(e) => { changeRole(u, e.currentTarget.value as Role); }}>
                      <option value="admin">{t('role.admin')}</option>
                      <option value="sender">{t('role.sender')}</option>
                    </select>
                  </td>
                  <td>{self ? null : <button type="button" class="button button-secondary button-small" aria-label={t('users.remove', { email: u.email })} onClick={() => { setRemoving(u); }}>{t('users.removeConfirm')}</button>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {loaded.data !== null || loaded.loading ? (
        <form class="panel stack" onSubmit={invite} aria-labelledby="invite-heading">
          <h2 id="invite-heading">{t('users.invite')}</h2>
          <div class="form-row">
            <label for="invite-email">{t('users.email')}</label>
            <input id="invite-email" type="email" required value={email} onInput={(e) => { setEmail(e.currentTarget.value); }} />
          </div>
          <div class="form-row">
            <label for="invite-name">{t('users.name')}</label>
            <input id="invite-name" type="text" value={name} onInput={(e) => { setName(e.currentTarget.value); }} />
          </div>
          <div class="form-row">
            <label for="invite-role">{t('users.role')}</label>
            <select id="invite-role" value={role} onChange={(e) => { setRole(e.currentTarget.value as Role); }}>
              <option value="sender">{t('role.sender')}</option>
              <option value="admin">{t('role.admin')}</option>
            </select>
          </div>
          <div class="form-row">
            <label for="invite-language">{t('users.language')}</label>
            <select id="invite-language" value={locale} onChange={(e) => { setLocale(e.currentTarget.value); }}>
              {CONSOLE_LOCALES.map((tag) => <option key={tag} value={tag} lang={tag}>{languageName(tag)}</option>)}
            </select>
          </div>
          <div class="actions"><button type="submit" class="button button-primary" disabled={action.busy}>{t('users.inviteButton')}</button></div>
        </form>
      ) : null}
      <Dialog open={removing !== null} title={t('users.removeTitle')} confirm={t('users.removeConfirm')} danger busy={action.busy} onClose={() => { setRemoving(null); }} onConfirm={remove}>
        <p>{t('users.removeText', { email: removing?.email ?? '' })}</p>
      </Dialog>
    </div>
  );
}
