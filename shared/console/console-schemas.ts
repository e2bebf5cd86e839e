import * as v from 'valibot';
import { E164 } from '../envelopes/envelope-schemas.ts';

export const ContactRequest = v.object({
  name: v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'), v.maxLength(200, 'must be at most 200 characters')),
  email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
  phone: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(E164, 'must be an E.164 phone number such as +14155550100'))), null),
});

export const ContactsQuery = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'), v.description('Matched case-insensitively against name and email'))),
});

export const ConsoleSettingsRequest = v.object({
  embedOrigins: v.pipe(
    v.array(v.pipe(v.string('must be an origin'), v.maxLength(300, 'must be at most 300 characters')), 'must be an array of origins'),
    v.maxLength(20, 'at most 20 origins'),
    v.description('HTTPS origins (`https://app.example.com`) allowed to frame embedded signing; at most 20'),
  ),
});
