/** `npm run openapi`: the OpenAPI document on stdout; the server URL from BASE_URL. */
import { buildOpenApi } from './openapi.ts';

const serverUrl = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
process.stdout.write(`${JSON.stringify(buildOpenApi({ serverUrl }), null, 2)}\n`);
