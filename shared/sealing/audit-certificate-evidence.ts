/**
 * The evidence of each signer on the audit certificate: how they authenticated, what consent they gave, the
 * signature they adopted (shown as adopted) and each of their actions with its time, IP address and user agent.
 */
import type { AdoptedSignature, AuditCertificateInput, CertificateSigner } from './audit-certificate-model.ts';
import { CONTENT_WIDTH, INK, VALUE_X, pngSize, record, rows, utc, type Block, type Line } from './audit-certificate-blocks.ts';
import { signatureStyle } from './text/catalog.ts';
import { layoutLine } from './text/layout.ts';

type CertificateEvent = AuditCertificateInput['events'][number];

/** The signer's steps that carry legal weight, as the certificate names them. */
const ACTIONS: Record<string, string> = {
  'signer.viewed': 'Viewed',
  'signer.otp_verified': 'Code verified',
  'signer.consented': 'Consented',
  'signer.signed': 'Signed',
  'signer.declined': 'Declined',
};

const IMAGE_BOX = { width: 160, height: 40 };
const TYPED_SIZE = 18;

/** A phone number with all but its first two and last two digits hidden: "+49 •••• ••12". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 8) return '•••• ••••';
  return `${phone.trim().startsWith('+') ? '+' : ''}${digits.slice(0, 2)} •••• ••${digits.slice(-2)}`;
}

function authentication(signer: CertificateSigner & Pick<Required<CertificateSigner>, 'authMethod'>): string {
  switch (signer.authMethod) {
    case 'email_otp': return `One-time code by email to ${signer.email}`;
    case 'sms_otp': return `One-time code by SMS to ${signer.phone ? maskPhone(signer.phone) : 'a phone number'}`;
    case 'none': return 'None (the signing link only)';
  }
}

function consent(signer: CertificateSigner, consented: boolean): string {
  if (signer.consentVersion) return `Electronic signature disclosure, version ${signer.consentVersion}`;
  return consented ? 'Given (the disclosure version was not recorded then)' : 'Not given';
}

/** The adopted signature's rows and a rendering of it: the image, or the typed text in its font. */
async function adoption(adopted: AdoptedSignature): Promise<Line[]> {
  const label = adopted.field === 'initial' ? 'Initials' : 'Signature';
  if (adopted.kind === 'typed') {
    const line = await layoutLine(adopted.text, signatureStyle(adopted.fontLabel));
    const size = Math.min(TYPED_SIZE, (CONTENT_WIDTH - VALUE_X) / Math.max(line.width, 1e-6));
    return [...(await rows([[label, `Typed, in the font ${adopted.fontLabel}`]], 12)), { height: size * 1.6, cells: [{ x: VALUE_X, line, size, color: INK }] }];
  }
  const how = adopted.source === 'drawn' ? 'Drawn (image)' : adopted.source === 'uploaded' ? 'Uploaded (image)' : 'Image (the signing client did not say whether drawn or uploaded)';
  const head = await rows([[label, how]], 12);
  const pixels = pngSize(adopted.png);
  if (!pixels || pixels.width === 0 || pixels.height === 0) return head;
  const scale = Math.min(IMAGE_BOX.width / pixels.width, IMAGE_BOX.height / pixels.height);
  const [width, height] = [pixels.width * scale, pixels.height * scale];
  return [...head, { height: height + 6, cells: [], image: { png: adopted.png, x: VALUE_X, width, height } }];
}

/** One action of the signer: its time, then the IP address and user agent it came from. */
async function action(event: CertificateEvent): Promise<Line[]> {
  return [
    ...(await rows([[`${ACTIONS[event.event] ?? event.event} (UTC)`, utc(event.timestamp)]], 12)),
    ...(await rows([['IP address', event.ip ?? '-'], ['User agent', event.userAgent ?? '-']], 24)),
  ];
}

/** The signer's record, then one block per action: a page breaks between actions, never inside one. */
export async function signerBlocks(signer: CertificateSigner, events: CertificateEvent[]): Promise<Block[]> {
  const own = events.filter((e) => e.actor === `signer:${signer.id}` && e.event in ACTIONS);
  const adopted = (await Promise.all((signer.adopted ?? []).map(adoption))).flat();
  const evidence: [string, string][] = signer.authMethod
    ? [['Authentication', authentication({ ...signer, authMethod: signer.authMethod })], ['Consent', consent(signer, own.some((e) => e.event === 'signer.consented'))]]
    : [];
  const head = await record(signer.name, [
    ['Email', signer.email],
    ['Status', signer.status],
    ['Signed at (UTC)', signer.signedAt ? utc(signer.signedAt) : '-'],
    ...evidence,
  ], adopted);
  const steps = await Promise.all(own.map(action));
  const last = steps.pop();
  if (!last) return [head];
  const space = head.pop(); // the record's closing space follows its last action
  return [head, ...steps, [...last, ...(space ? [space] : [])]];
}

/** Who sent the envelope, through which application, when and from where. */
export function senderRows(input: AuditCertificateInput): [string, string][] {
  const sent = input.events.find((e) => e.event === 'envelope.sent');
  if (!input.sender) return [];
  const cc = input.cc ?? [];
  const { name, email, createdBy } = input.sender;
  const named = name ? `${name}${email ? ` <${email}>` : ''}${input.organizationName ? ` at ${input.organizationName}` : ''}` : null;
  return [
    ['Sent by', `${named ?? createdBy ?? '(not named by the application)'}, through the application ${input.sender.appId}`],
    ['Sent (UTC)', input.sender.sentAt ? utc(input.sender.sentAt) : '-'],
    ['Sent from IP', sent?.ip ?? '-'],
    ['Sender user agent', sent?.userAgent ?? '-'],
    ['Carbon copies', cc.length > 0 ? cc.map((c) => `${c.name} <${c.email}>`).join('; ') : '(none)'],
  ];
}

/** The seal is made after this page is drawn: say who makes it, and where the proof is. */
export function sealRows(input: AuditCertificateInput): [string, string][] {
  if (!input.seal) return [];
  const { subject, timestampAuthority } = input.seal;
  const stamped = input.padesLevel !== 'B-B' && timestampAuthority;
  const made = stamped ? `Sealed by ${subject}, timestamped by ${timestampAuthority}.` : `Sealed by ${subject}.`;
  const proof = stamped
    ? ' The seal and the timestamp are added to this file after this page is drawn; the validation data in this PDF proves them.'
    : ' The seal is added to this file after this page is drawn; a PDF validator shows it.';
  return [['Sealed and completed (UTC)', utc(input.completedAt)], ['Seal', made + proof]];
}
