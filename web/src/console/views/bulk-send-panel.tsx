/**
 * Bulk send from a CSV: the file is read in the browser first (csv-parse, loaded only here) and its rows shown with
 * what is wrong in each, by the columns the route accepts (`<role>.name`, `<role>.email`, `<role>.phone`,
 * `prefill.<label>`, `subject`); the route checks again, and each row's own outcome is shown when the batch is done.
 */
import { useState } from 'preact/hooks';
import { call } from '../console-api.ts';
import { t } from '../console-i18n.ts';
import { Done, Problem, useAction } from '../console-kit.tsx';
import type { Template } from '../console-model.ts';

const MAX_ROWS = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ATTRIBUTES = ['name', 'email', 'phone', 'authMethod', 'locale'];

interface Preview { header: string[]; rows: string[][]; errors: Map<number, string[]>; fatal: string | null; text: string }
interface Batch { id: string; status: string; total: number; sent: number; failed: number; errors: { row: number; error: string; message: string }[] }

/** The problems the route would report, found before anything is sent. */
async function preview(file: File, template: Template): Promise<Preview> {
  const text = await file.text();
  const { parse } = await import('csv-parse/browser/esm/sync');
  let records: string[][];
  try {
    const parsed: string[][] = parse(text, { bom: true, skip_empty_lines: true, trim: true });
    records = parsed;
  } catch (error) {
    return { header: [], rows: [], errors: new Map(), fatal: t('bulk.notCsv', { message: (error as Error).message }), text };
  }
  const [header = [], ...rows] = records;
  const roles = new Set(template.roles.map((r) => r.role));
  const labels = new Set(template.fields.map((f) => f.label).filter((l): l is string => Boolean(l)));
  const unknown = header.filter((name) => {
    const prefill = /^prefill\.(.+)$/.exec(name);
    if (prefill?.[1]) return !labels.has(prefill[1]);
    const column = /^(.+)\.([A-Za-z]+)$/.exec(name);
    return name !== 'subject' && !(column?.[1] && roles.has(column[1]) && ATTRIBUTES.includes(column[2] ?? ''));
  });
  if (unknown.length > 0) return { header, rows, errors: new Map(), fatal: t('bulk.unknownColumns', { columns: unknown.join(', ') }), text };
  if (rows.length === 0 || rows.length > MAX_ROWS) return { header, rows, errors: new Map(), fatal: t('bulk.rowCount', { max: MAX_ROWS }), text };
  const errors = new Map<number, string[]>();
  rows.forEach((cells, r) => {
    const problems: string[] = [];
    const cell = (name: string) => cells[header.indexOf(name)]?.trim() ?? '';
    for (const role of roles) {
      if (!cell(`${role}.name`)) problems.push(t('bulk.missingName', { role }));
      const email = cell(`${role}.email`);
      if (!EMAIL.test(email)) problems.push(t('bulk.badEmail', { role }));
    }
    if (problems.length > 0) errors.set(r + 1, problems);
  });
  return { header, rows, errors, fatal: null, text };
}

export function BulkSend(props: { template: Template }) {
  const [shown, setShown] = useState<Preview | null>(null);
  const [batch, setBatch] = useState<Batch | null>(null);
  const action = useAction();
  const read = (file: File | undefined) => {
    setBatch(null);
    if (!file) { setShown(null); return; }
    void action.run(async () => { setShown(await preview(file, props.template)); return null; });
  };
  const send = () => {
    if (!shown) return;
    void action.run(async () => {
      const queued = await call<Batch>('POST', `/v1/templates/${props.template.id}/bulk-send`, { body: shown.text, contentType: 'text/csv' });
      let current = queued;
      // The batch runs in the background: look again until every row has its outcome (a few seconds)
      for (let i = 0; i < 30 && (current.status === 'queued' || current.status === 'running'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        current = await call<Batch>('GET', `/v1/bulk-sends/${queued.id}`);
        setBatch(current);
      }
      setBatch(current);
      return t('bulk.done', { sent: current.sent, failed: current.failed });
    });
  };
  const ok = shown && !shown.fatal && shown.errors.size === 0;
  return (
    <section class="panel stack" aria-labelledby="bulk-heading">
      <h2 id="bulk-heading">{t('bulk.heading')}</h2>
      <p class="hint">{t('bulk.hint', { columns: props.template.roles.map((r) => `${r.role}.name, ${r.role}.email`).join(', '), optional: 'prefill.<label>, subject' })}</p>
      <div class="form-row">
        <label for="bulk-file">{t('bulk.file')}</label>
        <input id="bulk-file" type="file" accept=".csv,text/csv" onChange={(e) => { read(e.currentTarget.files?.[0]); }} />
      </div>
      {shown?.fatal ? <div class="notice notice-error" role="alert"><p>{shown.fatal}</p></div> : null}
      {shown && !shown.fatal ? (
        <>
          <p role="status">{t('bulk.summary', { rows: shown.rows.length, errors: shown.errors.size })}</p>
          <div class="table-scroll" tabIndex={0} role="region" aria-label={t('bulk.previewLabel')}>
            <table class="records csv-preview">
              <thead><tr><th scope="col">{t('bulk.row')}</th>{shown.header.map((h) => <th scope="col" key={h}>{h}</th>)}<th scope="col">{t('bulk.problems')}</th></tr></thead>
              <tbody>
                {shown.rows.slice(0, 50).map((cells, i) => {
                  const problems = [...(shown.errors.get(i + 1) ?? []), ...(batch?.errors.filter((e) => e.row === i + 1).map((e) => e.message) ?? [])];
                  return (
                    <tr key={i} class={problems.length > 0 ? 'row-error' : undefined}>
                      <th scope="row">{i + 1}</th>
                      {shown.header.map((h, c) => <td key={h}>{cells[c] ?? ''}</td>)}
                      <td>{problems.length > 0 ? problems.join('; ') : t('bulk.rowOk')}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <Problem error={action.error} />
      <Done message={action.done} />
      <div class="actions">
        <button type="button" class="button button-primary" disabled={!ok || action.busy || batch !== null} onClick={send}>{t('bulk.send', { rows: shown?.rows.length ?? 0 })}</button>
      </div>
    </section>
  );
}
