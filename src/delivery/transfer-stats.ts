/** What one attempt moved; a resumed attempt counts only what it sent itself. */
export interface TransferStats {
  filesSent: number;
  bytesSent: number;
  /** the folder was already there, whole and identical: nothing sent */
  unchanged: boolean;
  /** what the attempt could not tidy although the folder arrived (a leftover it may not remove), for the record's detail */
  warnings: string[];
}

export const noTransfer = (): TransferStats => ({ filesSent: 0, bytesSent: 0, unchanged: false, warnings: [] });
