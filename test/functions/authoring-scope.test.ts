/**
 * Embedded authoring through the pipeline on in-memory ports: a session reaches only its own draft or template (404
 * for another, as for another application's), only the routes that take one (401 elsewhere), only fields in
 * `fields` mode (403 on full-mode routes); its URL opens once; its changes are the application's in the audit log.
 */
import { describe, expect, it } from 'vitest';
import { authoringWorld } from '#test/support/authoring.ts';

describe('an authoring session of one draft', () => {
  it('reads and edits that draft only, and only on the routes that take a session', async () => {
    const world = await authoringWorld();
    const [a, b] = [await world.draft('A'), await world.draft('B')];
    const { session, body } = await world.open('envelopes', a.id);
    expect(body).toMatchObject({ kind: 'envelope', id: a.id, mode: 'fields', returnUrl: null, embedOrigins: [] });

    expect((await world.call('GET', `/v1/envelopes/${a.id}`, { token: session })).status).toBe(200);
    expect((await world.call('GET', `/v1/envelopes/${a.id}/document`, { token: session })).headers['content-type']).toBe('application/pdf');
    // Another draft of the same application is as unknown as another application's
    const other = await world.call('GET', `/v1/envelopes/${b.id}`, { token: session });
    expect(other).toMatchObject({ status: 404, body: { error: 'not_found', message: 'Envelope not found' } });
    const fieldOfB = b.fields[0]?.id ?? '';
    expect((await world.call('DELETE', `/v1/envelopes/${b.id}/fields/${fieldOfB}`, { token: session })).status).toBe(404);
    expect((await world.call('GET', `/v1/templates/${world.template.id}`, { token: session })).status).toBe(401);
    // Routes outside the list refuse it outright
    for (const [method, path] of [['GET', '/v1/envelopes?tenantId=acme'], ['GET', '/v1/console/usage'], ['POST', `/v1/envelopes/${a.id}/authoring-url`]] as const) {
      const refused = await world.call(method, path, { token: session, json: method === 'POST' ? {} : undefined });
      expect(refused, `${method} ${path}`).toMatchObject({ status: 401, body: { reason: 'session_scope' } });
    }
    // A fields-mode session cannot change signers, subject or documents, nor send
    const fullOnly = [
      ['PATCH', `/v1/envelopes/${a.id}`, { subject: 'x' }], ['POST', `/v1/envelopes/${a.id}/signers`, { name: 'Bo', email: 'bo@example.com' }],
      ['DELETE', `/v1/envelopes/${a.id}/signers/${a.signers[0]?.id ?? ''}`, undefined], ['POST', `/v1/envelopes/${a.id}/send`, {}],
    ] as const;
    for (const [method, path, json] of fullOnly) {
      expect(await world.call(method, path, { token: session, json }), `${method} ${path}`).toMatchObject({ status: 403, body: { reason: 'session_scope' } });
    }
    // The bearer token of the application is not a session: renewing with it is refused
    expect(await world.call('POST', '/v1/authoring/session', { token: await world.apiToken() })).toMatchObject({ status: 401, body: { reason: 'session_scope' } });
  });

  it('places, moves and removes fields through the same use cases as the API, recorded as the application\'s', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const { session } = await world.open('envelopes', a.id);
    const signerId = a.signers[0]?.id ?? '';
    const documentId = a.documents[0]?.id ?? '';
    const placed = await world.call('POST', `/v1/envelopes/${a.id}/fields`, { token: session, json: { signerId, documentId, type: 'text', page: 2, x: 100, y: 500, w: 120, h: 20, label: 'Company' } });
    expect(placed.status).toBe(201);
    const fieldId = String(placed.body.id);
    const moved = await world.call('PUT', `/v1/envelopes/${a.id}/fields/${fieldId}`, { token: session, json: { signerId, type: 'text', page: 1, x: 300, y: 400, w: 150, h: 24, label: 'Company name', required: false } });
    expect(moved).toMatchObject({ status: 200, body: { id: fieldId, documentId, page: 1, x: 300, y: 400, w: 150, h: 24, label: 'Company name', required: false, origin: 'bottom-left' } });
    expect((await world.call('DELETE', `/v1/envelopes/${a.id}/fields/${a.fields[0]?.id ?? ''}`, { token: session })).status).toBe(204);

    const read = await world.call('GET', `/v1/envelopes/${a.id}`, { token: await world.apiToken() });
    expect(read.body.fields).toEqual([moved.body]);
    const events = (read.body.auditLog as { event: string; actor: string; ip: string }[]).slice(-4);
    expect(events.map((e) => e.event)).toEqual(['envelope.authoring_url_issued', 'field.added', 'field.updated', 'field.removed']);
    expect(new Set(events.map((e) => e.actor))).toEqual(new Set(['system']));
  });

  it('refuses a field off its page (400), an unknown field (404), and any change once the envelope is sent (400 invalid_state)', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const { session } = await world.open('envelopes', a.id, 'full');
    const signerId = a.signers[0]?.id ?? '';
    const fieldId = a.fields[0]?.id ?? '';
    const field = { signerId, type: 'signature', page: 1, x: 500, y: 72, w: 180, h: 40 };
    const off = await world.call('PUT', `/v1/envelopes/${a.id}/fields/${fieldId}`, { token: session, json: field });
    expect(off).toMatchObject({ status: 400, body: { error: 'validation_error', details: { x: [expect.stringContaining('inside page 1')] } } });
    expect(await world.call('PUT', `/v1/envelopes/${a.id}/fields/${fieldId}`, { token: session, json: { ...field, x: 72, page: 3 } })).toMatchObject({ status: 400, body: { details: { page: [expect.any(String)] } } });
    expect(await world.call('PUT', `/v1/envelopes/${a.id}/fields/${crypto.randomUUID()}`, { token: session, json: { ...field, x: 72 } })).toMatchObject({ status: 404 });
    expect(await world.call('PUT', `/v1/envelopes/${a.id}/fields/${fieldId}`, { token: session, json: { ...field, x: 72, signerId: crypto.randomUUID() } })).toMatchObject({ status: 400, body: { details: { signerId: [expect.any(String)] } } });

    // Full mode: subject, signers, and the send itself
    expect(await world.call('PATCH', `/v1/envelopes/${a.id}`, { token: session, json: { subject: 'Lease', message: 'Please sign' } })).toMatchObject({ status: 200, body: { subject: 'Lease' } });
    const renamed = await world.call('PUT', `/v1/envelopes/${a.id}/signers/${signerId}`, { token: session, json: { name: 'Ana Lima', email: 'ana.lima@example.com', authMethod: 'none' } });
    expect(renamed).toMatchObject({ status: 200, body: { id: signerId, name: 'Ana Lima', email: 'ana.lima@example.com', authMethod: 'none' } });
    const bo = await world.call('POST', `/v1/envelopes/${a.id}/signers`, { token: session, json: { name: 'Bo', email: 'bo@example.com' } });
    const boField = await world.call('POST', `/v1/envelopes/${a.id}/fields`, { token: session, json: { signerId: bo.body.id, type: 'initial', page: 2, x: 72, y: 72, w: 40, h: 20 } });
    expect(boField.status).toBe(201);
    expect((await world.call('DELETE', `/v1/envelopes/${a.id}/signers/${String(bo.body.id)}`, { token: session })).status).toBe(204);
    const after = await world.call('GET', `/v1/envelopes/${a.id}`, { token: session });
    expect((after.body.fields as { id: string }[]).map((f) => f.id)).toEqual([fieldId]);
    expect(await world.call('POST', `/v1/envelopes/${a.id}/send`, { token: session, json: {} })).toMatchObject({ status: 200, body: { status: 'sent' } });

    const refusals = [
      ['PUT', `/v1/envelopes/${a.id}/fields/${fieldId}`, { ...field, x: 72 }], ['DELETE', `/v1/envelopes/${a.id}/fields/${fieldId}`, undefined],
      ['PATCH', `/v1/envelopes/${a.id}`, { subject: 'Late' }], ['DELETE', `/v1/envelopes/${a.id}/signers/${signerId}`, undefined],
    ] as const;
    for (const [method, path, json] of refusals) {
      expect(await world.call(method, path, { token: await world.apiToken(), json }), `${method} ${path}`).toMatchObject({ status: 400, body: { error: 'invalid_state' } });
    }
    expect(await world.call('POST', `/v1/envelopes/${a.id}/authoring-url`, { token: await world.apiToken(), json: {} })).toMatchObject({ status: 400, body: { error: 'invalid_state' } });
  });
});

describe('an authoring URL', () => {
  it('opens once', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const { ticket, status } = await world.open('envelopes', a.id);
    expect(status).toBe(200);
    expect(await world.call('POST', `/v1/authoring/${ticket}/open`)).toMatchObject({ status: 401, body: { reason: 'link_opened' } });
    expect(await world.call('POST', `/v1/authoring/${ticket.slice(0, -2)}xx/open`)).toMatchObject({ status: 401, body: { reason: 'link_invalid' } });
  });

  it('refuses a returnUrl that is not HTTPS, and a mode it does not know', async () => {
    const world = await authoringWorld();
    const a = await world.draft('A');
    const token = await world.apiToken();
    expect(await world.call('POST', `/v1/envelopes/${a.id}/authoring-url`, { token, json: { returnUrl: 'http://app.example.com/done' } })).toMatchObject({ status: 400, body: { details: { returnUrl: [expect.any(String)] } } });
    expect(await world.call('POST', `/v1/envelopes/${a.id}/authoring-url`, { token, json: { mode: 'all' } })).toMatchObject({ status: 400, body: { details: { mode: [expect.any(String)] } } });
  });
});

describe('an authoring session of a template', () => {
  it('reads the template and its document, moves and removes its fields, and in full mode changes its roles', async () => {
    const world = await authoringWorld();
    const { template } = world;
    const fields = await world.open('templates', template.id);
    const session = fields.session;
    expect(fields.body).toMatchObject({ kind: 'template', id: template.id, mode: 'fields' });
    expect((await world.call('GET', `/v1/templates/${template.id}`, { token: session })).status).toBe(200);
    expect((await world.call('GET', `/v1/templates/${template.id}/document`, { token: session })).headers['content-type']).toBe('application/pdf');
    const fieldId = template.fields[0]?.id ?? '';
    const moved = await world.call('PUT', `/v1/templates/${template.id}/fields/${fieldId}`, { token: session, json: { role: 'client', type: 'signature', page: 1, x: 100, y: 100, w: 150, h: 30 } });
    expect(moved).toMatchObject({ status: 200, body: { id: fieldId, page: 1, x: 100, y: 100, w: 150, h: 30 } });
    expect(await world.call('PUT', `/v1/templates/${template.id}/fields/${fieldId}`, { token: session, json: { role: 'client', type: 'signature', page: 1, x: 590, y: 100, w: 150, h: 30 } })).toMatchObject({ status: 400 });
    expect(await world.call('PATCH', `/v1/templates/${template.id}`, { token: session, json: { name: 'Renamed' } })).toMatchObject({ status: 403 });
    expect(await world.call('GET', `/v1/envelopes/${(await world.draft('A')).id}`, { token: session })).toMatchObject({ status: 401 });

    const full = await world.open('templates', template.id, 'full');
    const patched = await world.call('PATCH', `/v1/templates/${template.id}`, { token: full.session, json: { name: 'Mutual NDA', roles: [{ role: 'discloser' }, { role: 'recipient', routingOrder: 2 }] } });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Mutual NDA', roles: [{ role: 'discloser', routingOrder: 1 }, { role: 'recipient', routingOrder: 2 }], fields: [] } });
    expect((await world.call('DELETE', `/v1/templates/${template.id}/fields/${fieldId}`, { token: full.session })).status).toBe(404);
  });
});
