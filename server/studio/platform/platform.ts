/** The generation platform as the studio speaks to it (a queue API: submit, status, cancel). */
export interface Submitted {
  request_id: string;
  status: string;
  status_url: string;
  cancel_url: string;
}

export interface PlatformStatus {
  request_id?: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | 'nsfw' | string;
  images?: { url: string }[];
  video?: { url: string };
  audio?: { url: string };
  error?: string;
}

export interface Platform {
  readonly name: 'remote' | 'local';
  submit(model: string, body: Record<string, unknown>): Promise<Submitted>;
  status(statusUrl: string): Promise<PlatformStatus>;
  cancel(cancelUrl: string): Promise<void>;
  close?(): void;
}

/** A platform answer the studio could not use; its text is kept on the job. */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}
