import { DeleteObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { RETENTION_STARTED } from '#adapters/aws/s3-blob-store.ts';
import type { S3Event } from 'aws-lambda';
import { LIFECYCLE_RULES } from '#domain/retention.ts';
import { powertoolsLogger } from '#adapters/powertools-logger.ts';
import type { Job } from './scheduler.ts';

const logger = powertoolsLogger();

const DAY_MS = 86_400_000;
/**
 * s3rver reads every listed object's files at once: a page of 1,000 (S3's default) opened more files than a process
 * may, and a bucket that large failed every listing with InternalError. Small pages list the same objects.
 */
const LIST_PAGE = 100;

/**
 * What S3 lifecycle rules do on AWS, run by the local scheduler on the service clock: objects whose retention
 * tag's rule has expired (counted from the object's last write, as S3 counts from creation) are deleted, and
 * the deletion event goes to the object-removed worker, as the S3 notification does.
 */
export function lifecycleJob(s3: S3Client, bucket: string, onRemoved: (event: S3Event) => Promise<unknown>): Job {
  return async (now) => {
    // Per key prefix that carries retention tags, so a listing s3rver cannot answer for one stops no other.
    for (const prefix of RETAINED_PREFIXES) {
      try {
        await applyRules(s3, bucket, prefix, now, onRemoved);
      } catch (error) {
        logger.warn('lifecycle listing failed; tried again on the next run', { prefix, name: (error as Error).name, error: (error as Error).message });
      }
    }
  };
}

/** The key prefixes whose objects carry a retention tag (shared/domain/retention.ts). */
const RETAINED_PREFIXES = ['original/', 'sealed/', 'signatures/'] as const;

async function applyRules(s3: S3Client, bucket: string, prefix: string, now: Date, onRemoved: (event: S3Event) => Promise<unknown>): Promise<void> {
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: LIST_PAGE }));
    for (const object of page.Contents ?? []) {
      if (!object.Key || !object.LastModified) continue;
      // Each object on its own, as S3 applies its rules: one that cannot be read (deleted meanwhile) stops no other.
      try {
        if (await expired(s3, bucket, object.Key, object.LastModified, now)) {
          await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
          await onRemoved(removalEvent(bucket, object.Key));
        }
      } catch (error) {
        logger.warn('lifecycle rule not applied to an object; tried again on the next run', { key: object.Key, error: (error as Error).message });
      }
    }
    token = page.NextContinuationToken;
  } while (token);
}

/** The object's age on the service clock: from the retention start recorded at tagging, else its last write. */
async function expired(s3: S3Client, bucket: string, key: string, lastModified: Date, now: Date): Promise<boolean> {
  const { TagSet = [] } = await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
  const rule = LIFECYCLE_RULES.find((r) => TagSet.some((t) => t.Key === r.tag.key && t.Value === r.tag.value));
  if (!rule) return false;
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  const started = Date.parse(head.Metadata?.[RETENTION_STARTED] ?? '') || lastModified.getTime();
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
