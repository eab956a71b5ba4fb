/**
 * Where a report lands in an S3 bucket, and how an operator reads it: plain string work, kept apart
 * from s3-delivery.ts so that naming a destination (a delivery record, doctor's line) does not load
 * the AWS SDK, which only a run that delivers to S3 needs (megabytes of every other job's memory).
 */
import type { S3Destination } from '../config/delivery-schema.js';

export function s3Label(d: S3Destination): string {
  return `s3://${d.bucket}${d.prefix ? `/${trimSlashes(d.prefix)}` : ''}`;
}

export function objectKey(d: S3Destination, ...parts: string[]): string {
  return [trimSlashes(d.prefix), ...parts].filter((p) => p !== '').join('/');
}

function trimSlashes(s: string): string {
  return s.replace(/^\/+|\/+$/g, '');
}
