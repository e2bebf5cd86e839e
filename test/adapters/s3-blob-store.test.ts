import { S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { S3BlobStore } from '#shared/adapters/aws/s3-blob-store.ts';
import { localS3ClientConfig } from '#local/engines/s3.ts';
import { testConfig } from '#test/support/config.ts';
import { describeBlobStore, httpTransport } from './contract/blob-store.ts';

describeBlobStore('s3rver', { build: () => new S3BlobStore(new S3Client(localS3ClientConfig(inject('s3Endpoint'))), testConfig().bucketName) }, httpTransport());
