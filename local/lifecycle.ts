import { DeleteObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { RETENTION_STARTED } from '#shared/adapters/aws/s3-blob-store.ts';
import type { S3Event } from 'aws-lambda';
import { LIFECYCLE_RULES } from '#shared/retention/retention.ts';
import { retainedKeys } from '#shared/retention/retention-actions.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';
import type { Job } from './scheduler.ts';

const logger = powertoolsLogger();

const DAY_MS = 86_400_000;
/** Envelopes looked at per run, earliest deletion first; the rest wait for the next run. */
const PER_RUN = 1_000;
/** Envelopes whose objects are checked side by side: a full suite's worth falls due at once on a 30-day jump. */
const AT_ONCE = 8;

/**
 * What S3 lifecycle rules do on AWS, run by the local scheduler on the service clock: objects whose retention
 * tag's rule has expired (counted from the retention start recorded at tagging, else the object's last write, as S3
 * counts from creation) are deleted, and the deletion event goes to the object-removed worker, as the S3 notification
 * does. The candidates come from the table (envelopes whose deletion date has passed: a tag's class is never
 * shorter than the tenant's retention), each object checked on its own; the bucket is never listed, so its size
 * does not matter.
 */
export function lifecycleJob(s3: S3Client, bucket: string, envelopes: Pick<EnvelopeRepository, 'retainedUntil' | 'find' | 'submissions'>, onRemoved: (event: S3Event) => Promise<unknown>): Job {
  return async (now) => {
    const due = await envelopes.retainedUntil(now, PER_RUN);
    for (let start = 0; start < due.length; start += AT_ONCE) {
      await Promise.all(due.slice(start, start + AT_ONCE).map(async (id) => {
        let keys: string[];
        try {
          const envelope = await envelopes.find(id);
          keys = envelope ? await retainedKeys(envelopes, envelope) : [];
        } catch (error) {
          logger.warn('lifecycle could not read an envelope; tried again on the next run', { envelopeId: id, error: (error as Error).message });
          return;
        }
        // In order, one at a time: the order they were tagged in, so they expire in it (retainedKeys).
        for (const key of keys) await applyRule(s3, bucket, key, now, onRemoved);
      }));
    }
  };
}

/** Each object on its own, as S3 applies its rules: one that cannot be read stops no other. */
async function applyRule(s3: S3Client, bucket: string, key: string, now: Date, onRemoved: (event: S3Event) => Promise<unknown>): Promise<void> {
  try {
    if (!(await expired(s3, bucket, key, now))) return;
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    await onRemoved(removalEvent(bucket, key));
  } catch (error) {
    logger.warn('lifecycle rule not applied to an object; tried again on the next run', { key, error: (error as Error).message });
  }
}

/** The object's age on the service clock against its tag's rule; an object already gone has nothing to expire. */
async function expired(s3: S3Client, bucket: string, key: string, now: Date): Promise<boolean> {
  let head;
  try {
    head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if ((error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') return false;
    throw error;
  }
  const { TagSet = [] } = await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
  const rule = LIFECYCLE_RULES.find((r) => TagSet.some((t) => t.Key === r.tag.key && t.Value === r.tag.value));
  if (!rule) return false;
  const started = Date.parse(head.Metadata?.[RETENTION_STARTED] ?? '') || (head.LastModified?.getTime() ?? now.getTime());
  return started + rule.expireAfterDays * DAY_MS <= now.getTime();
}

function removalEvent(bucket: string, key: string): S3Event {
  return {
    Records: [{
      eventVersion: '2.1', eventSource: 'aws:s3', awsRegion: 'us-east-1', eventTime: new Date().toISOString(), eventName: 'LifecycleExpiration:Delete',
      userIdentity: { principalId: 's3.amazonaws.com' }, requestParameters: { sourceIPAddress: 's3.amazonaws.com' },
      responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
      s3: {
        s3SchemaVersion: '1.0', configurationId: 'retention',
        bucket: { name: bucket, ownerIdentity: { principalId: 'local' }, arn: `arn:aws:s3:::${bucket}` },
        object: { key: encodeURIComponent(key).replace(/%2F/g, '/'), size: 0, eTag: '', sequencer: '0' },
      },
    }],
  };
}
