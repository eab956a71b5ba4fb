/** What became of one message to one destination: the row the runs' notifications table keeps. */
export type NotifyEvent = 'run' | 'start' | 'success' | 'fail' | 'test';

export interface DeliveryResult {
  destination: string;
  kind: 'webhook' | 'slack' | 'email' | 'ping';
  event: NotifyEvent;
  outcome: 'delivered' | 'failed';
  attempts: number;
  /** `delivered`, or why not (DNS, refused, TLS, timeout, the server's words) */
  detail: string;
  duration_ms: number;
}
