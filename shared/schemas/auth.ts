import * as v from 'valibot';

/** OAuth 2.0 client credentials (decision 29), form-urlencoded; the credentials may come as HTTP Basic instead. */
export const TokenRequest = v.object({
  grant_type: v.pipe(v.string('is required'), v.literal('client_credentials', 'must be client_credentials')),
  client_id: v.pipe(v.string('is required'), v.nonEmpty('is required'), v.description('May instead be sent with client_secret as HTTP Basic credentials')),
  client_secret: v.pipe(v.string('is required'), v.nonEmpty('is required')),
});
