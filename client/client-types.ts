/** The client's own types, in one module the helpers and the entry point both import (so neither imports the other). */
import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type Schemas = components['schemas'];
export type EsignClient = Client<paths>;
export type ApiError = Schemas['Error'];
