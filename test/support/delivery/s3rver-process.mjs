// s3rver as its own process (a test kills it mid-upload). Its bin ignores -d (commander's opts()
// drops it and the store falls back to a shared /tmp/s3rver), so the options are passed here.
import S3rver from 's3rver';

const [directory, port] = process.argv.slice(2);
await new S3rver({ directory, address: '127.0.0.1', port: Number(port), silent: true, vhostBuckets: false }).run();
