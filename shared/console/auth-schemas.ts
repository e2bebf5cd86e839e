import * as v from 'valibot';
import { positive } from '../http/response-primitives.ts';

/** OAuth 2.0 client credentials (decision 29), form-urlencoded; the credentials may come as HTTP Basic instead. */
export const TokenRequest = v.object({
  grant_type: v.pipe(v.string('is required'), v.literal('client_credentials', 'must be client_credentials')),
  client_id: v.pipe(v.string('is required'), v.nonEmpty('is required'), v.description('May instead be sent with client_secret as HTTP Basic credentials')),
  client_secret: v.pipe(v.string('is required'), v.nonEmpty('is required')),
});

export const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.description('Bearer token (JWT)')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(positive, v.description('Seconds'), v.examples([3600])),
});
