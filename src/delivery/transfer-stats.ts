/** What one attempt moved; a resumed attempt counts only what it sent itself. */
export interface TransferStats {
  filesSent: number;
  bytesSent: number;
  /** the folder was already there, whole and identical: nothing sent */
  unchanged: boolean;
}

export const noTransfer = (): TransferStats => ({ filesSent: 0, bytesSent: 0, unchanged: false });
